import { describe, expect, it } from 'vitest';
import SwaggerParser from '@apidevtools/swagger-parser';
import { loadDescription } from '../../src/contract/load.js';

describe('the OpenAPI description', () => {
  it('is a valid OpenAPI 3.1 document once its fragments are merged', async () => {
    const doc = loadDescription();
    const api = (await SwaggerParser.validate(structuredClone(doc) as any)) as { openapi?: string };
    expect(api.openapi).toBe('3.1.0');
  });

  it('names every operation with a unique operationId', () => {
    const doc = loadDescription();
    const ids: string[] = [];
    for (const item of Object.values(doc.paths)) for (const op of Object.values<any>(item)) ids.push(op.operationId);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('the control API description', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const doc = loadDescription('control');
    const api = (await SwaggerParser.validate(structuredClone(doc) as any)) as { openapi?: string };
    expect(api.openapi).toBe('3.1.0');
  });
});
