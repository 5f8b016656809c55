// Filled in by the contract core: fails a test when a response broke the description.
