import { InvalidArgumentError, Option } from 'commander';
import { createLogger } from '../api/kit/logging';
import { loadConfig, type Config } from '../config';
import { openSuite, type Suite } from '../main';

export function wholeNumber(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('must be a whole number');
  return Number(value);
}

export const dataDirOption = () =>
  new Option('--data-dir <dir>', 'data directory (overrides SUITE_DATA_DIR)');

/** The configuration, with `--data-dir` over SUITE_DATA_DIR. */
export function config(options: { dataDir?: string }): Config {
  return loadConfig(options.dataDir ? { ...process.env, SUITE_DATA_DIR: options.dataDir } : process.env);
}

/** The stores, for a command that works on them and logs only warnings. */
export const quietSuite = (settings: Config): Promise<Suite> =>
  openSuite(settings, { logger: createLogger('warn') });
