#!/usr/bin/env node
import { suiteProgram } from './cli/program';
import { escapeControls } from './cli/terminal';
import { ConfigError } from './config';
import { PRIVATE_UMASK } from './private-files';

// Before any file is written: the stores, keys and exports are the owner's alone (0700 / 0600).
process.umask(PRIVATE_UMASK);

suiteProgram()
  .parseAsync()
  .catch((error: unknown) => {
    // A configuration error's lines are the suite's own; any other message may quote a stored value.
    if (error instanceof ConfigError) console.error(error.message);
    else console.error(error instanceof Error ? escapeControls(error.message) : error);
    process.exit(1);
  });
