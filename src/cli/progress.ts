import { SingleBar, Presets } from 'cli-progress';

/** A progress bar on stderr (stdout is the command's answer). */
export function progressBar(label: string, unit = 'events'): SingleBar {
  return new SingleBar(
    {
      format: `${label} [{bar}] {percentage}% | {value}/{total} ${unit} | {eta_formatted} left`,
      noTTYOutput: true,
      stream: process.stderr,
    },
    Presets.shades_classic,
  );
}
