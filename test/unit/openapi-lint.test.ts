import { resolve } from 'node:path';
import { lintFromString, loadConfig } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../lib/openapi';

/** The document through the OpenAPI linter with the committed ruleset (redocly.yaml): no problem at all. */
describe('the OpenAPI document, linted', () => {
  it('has no problem under redocly.yaml', async () => {
    const config = await loadConfig({ configPath: resolve(import.meta.dirname, '../../redocly.yaml') });
    const problems = await lintFromString({
      source: JSON.stringify(openApiDocument()),
      absoluteRef: 'openapi.json',
      config,
    });
    const described = problems.map(
      (problem) =>
        `${problem.severity} ${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`,
    );
    expect(described).toEqual([]);
  });
});

describe('the linter itself', () => {
  it('reports what the ruleset asks for: an operation without operationId or security', async () => {
    const config = await loadConfig({ configPath: resolve(import.meta.dirname, '../../redocly.yaml') });
    const document = openApiDocument() as unknown as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    const operation = document.paths['/api/sessions/get']?.post ?? {};
    delete operation.operationId;
    delete operation.security;
    const problems = await lintFromString({
      source: JSON.stringify(document),
      absoluteRef: 'openapi.json',
      config,
    });
    expect(problems.map((problem) => problem.ruleId)).toEqual(
      expect.arrayContaining(['operation-operationId', 'security-defined']),
    );
  });
});
