// The request headers of the mock's own (X-Mock-*), named once: the server reads them and the
// control client sends them. Node gives header names in lower case.
export const FEATURE_LEVEL_HEADER = 'x-mock-feature-level';
export const SANDBOX_HEADER = 'x-mock-sandbox';
export const SCENARIO_HEADER = 'x-mock-scenario';
export const TOKEN_HEADER = 'x-mock-token';
