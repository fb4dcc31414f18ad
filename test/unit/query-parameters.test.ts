import fc from 'fast-check';
import { z } from 'zod';
import {
  declaredParameters,
  parameterProblem,
  queryValues,
  type DeclaredParameters,
} from '../../src/api/kit/query-parameters';

const NAMES = ['limit', 'q', 'module', 'type', 'foo', 'a b', 'é'] as const;

/** Declared parameters over some of NAMES, each single or a list. */
const declared = fc
  .dictionary(fc.constantFrom(...NAMES), fc.constantFrom('single' as const, 'list' as const), { maxKeys: 5 })
  .map((entries): DeclaredParameters => new Map(Object.entries(entries)));

const value = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('', 'esm,crm', ',', ' x , y '));
const pairs = fc.array(fc.tuple(fc.constantFrom(...NAMES), value), { maxLength: 8 });

describe('query parameters', () => {
  it('a query is refused exactly when it names an undeclared parameter or repeats a single one, the first such named', () => {
    fc.assert(
      fc.property(declared, pairs, (parameters, given) => {
        const query = new URLSearchParams(given);
        const problem = parameterProblem(query, parameters);
        const seen = new Set<string>();
        const expected = given
          .map(([name]) => {
            const arity = parameters.get(name);
            const repeated = arity === 'single' && seen.has(name);
            seen.add(name);
            if (arity === undefined) return { code: 'unknown_parameter', parameter: name };
            return repeated ? { code: 'repeated_parameter', parameter: name } : undefined;
          })
          .find((found) => found !== undefined);
        expect(problem).toEqual(expected);
      }),
    );
  });

  it('a list takes every value of every repetition, split at commas, blanks dropped; a single its one value', () => {
    fc.assert(
      fc.property(declared, pairs, (parameters, given) => {
        const query = new URLSearchParams(given);
        fc.pre(parameterProblem(query, parameters) === undefined);
        const values = queryValues(query, parameters);
        for (const [name, arity] of parameters) {
          const sent = given.filter(([candidate]) => candidate === name).map(([, text]) => text);
          if (arity === 'single') {
            expect(values[name]).toBe(sent[0]);
            continue;
          }
          const items = sent.flatMap((text) => text.split(',').map((item) => item.trim())).filter(Boolean);
          expect(values[name]).toEqual(items.length > 0 ? items : undefined);
        }
        expect(Object.keys(values).every((name) => parameters.has(name))).toBe(true);
      }),
    );
  });

  it('a schema declares its keys, a list where the value is an array', () => {
    const schema = z.object({
      limit: z.string().optional(),
      module: z.array(z.string()).optional(),
      type: z.array(z.string()).default([]),
    });
    expect(declaredParameters(schema)).toEqual(
      new Map([
        ['limit', 'single'],
        ['module', 'list'],
        ['type', 'list'],
      ]),
    );
    expect(declaredParameters(undefined)).toEqual(new Map());
  });
});
