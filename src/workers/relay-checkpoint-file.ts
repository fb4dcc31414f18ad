import { mkdir, open, readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { PRIVATE_DIR, PRIVATE_FILE } from '../private-files';
import type { RelayCheckpoint } from './relay';

/**
 * The relay's position in a small JSON file, replaced atomically (written beside it, fsynced, renamed
 * over it), so a crash leaves the old position or the new one. It lives apart from the read models on
 * purpose: `suite rebuild` drops every read-model checkpoint, and the relay must not publish the whole
 * log again because the read models were rebuilt. A lost file only means publishing again from the
 * start (at-least-once; consumers dedupe by event id).
 */
export function fileRelayCheckpoint(file: string): RelayCheckpoint {
  return {
    async load() {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
        throw error;
      }
      const { position } = JSON.parse(text) as { position?: unknown };
      if (typeof position !== 'number' || !Number.isSafeInteger(position) || position < 0) {
        throw new Error(`${file} does not hold a relay position`);
      }
      return position;
    },
    async save(position) {
      await mkdir(path.dirname(file), { recursive: true, mode: PRIVATE_DIR });
      const temporary = `${file}.tmp`;
      const handle = await open(temporary, 'w', PRIVATE_FILE);
      try {
        await handle.writeFile(`${JSON.stringify({ position })}\n`);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temporary, file);
    },
  };
}
