import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { joinBodySchema } from '../../src/shared/schemas/auth.ts';
import { clientFormSchema } from '../../src/shared/schemas/clients.ts';

const catalogue = (locale: string) =>
  JSON.parse(
    readFileSync(
      join(import.meta.dirname, '..', '..', 'src', 'shared', 'messages', `${locale}.json`),
      'utf8',
    ),
  ) as Record<string, string>;

/** Every message the shared schema gives for these inputs, as the forms show them. */
function messagesFor(
  schema: { safeParse(input: unknown): { error?: { issues: { message: string }[] } } },
  inputs: unknown[],
): string[] {
  return [
    ...new Set(
      inputs.flatMap(
        (input) => schema.safeParse(input).error?.issues.map((issue) => issue.message) ?? [],
      ),
    ),
  ];
}

// The specification's messages are lowercase words rather than sentences, so the check of every
// written sentence (server-messages.test.ts) does not see them: they are asked of the schemas.
describe("the specification's validation messages", () => {
  const client = {
    firstName: '',
    lastName: '',
    email: '',
    phone: '',
    currency: 'USD',
    balance: '0',
  };
  const shown = [
    ...new Set([
      ...messagesFor(clientFormSchema, [
        client,
        { ...client, firstName: 'A', lastName: 'B', email: 'not an address', phone: '12' },
      ]),
      ...messagesFor(joinBodySchema, [
        { email: '', password: 'correct horse battery staple' },
        { email: 'nope', password: 'correct horse battery staple' },
      ]),
    ]),
  ];

  it('are the ones the specification names', () => {
    for (const message of [
      'first name required',
      'last name required',
      'must be at least 2 characters',
      'email required',
      'enter valid email',
      'phone required',
      'enter valid phone',
    ])
      expect(shown).toContain(message);
  });

  it.each(['ko', 'ms'])('are translated in %s (decision 24)', (locale) => {
    const messages = catalogue(locale);
    expect(shown.filter((message) => !(message in messages))).toEqual([]);
  });
});
