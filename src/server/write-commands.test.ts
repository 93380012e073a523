import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeCommands } from './write-commands.ts';

const modulesRoot = path.join(import.meta.dirname, 'modules');

/** Every command exported by a module's `*.commands.ts`, by the name its module and export give. */
async function exportedCommands(): Promise<Map<string, unknown>> {
  const found = new Map<string, unknown>();
  const files = (readdirSync(modulesRoot, { recursive: true }) as string[]).filter((file) =>
    file.endsWith('.commands.ts'),
  );
  for (const file of files) {
    const moduleName = file.split(path.sep)[0];
    const exports = (await import(path.join(modulesRoot, file))) as Record<string, unknown>;
    for (const [exportName, value] of Object.entries(exports)) {
      const isCommand =
        typeof value === 'object' &&
        value !== null &&
        typeof (value as { prepare?: unknown }).prepare === 'function';
      if (isCommand) found.set(`${moduleName}.${exportName}`, value);
    }
  }
  return found;
}

describe('the table of write commands', () => {
  it('names each command after its module and its export, and holds every one', async () => {
    const exported = await exportedCommands();
    expect(exported.size).toBeGreaterThan(0);
    const misnamed = Object.entries(writeCommands)
      .filter(([name, command]) => exported.get(name) !== command)
      .map(([name]) => name);
    expect(misnamed).toEqual([]);
    const inTable = new Set<unknown>(Object.values(writeCommands));
    const missing = [...exported].filter(([, command]) => !inTable.has(command)).map(([n]) => n);
    expect(missing).toEqual([]);
  });
});
