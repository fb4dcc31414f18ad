/** What the server that serves the console says about the suite: the ports it talks to. */
export interface ConsoleSettings {
  modules: { id: string; title: string; shortTitle: string; port: number }[];
  audit: { port: number };
}

export async function loadSettings(): Promise<ConsoleSettings> {
  const response = await fetch('/console-config.json');
  if (!response.ok) throw new Error(`The console's settings could not be read (${response.status})`);
  return (await response.json()) as ConsoleSettings;
}

/** A port on the host the console was opened at: the suite serves the console and its APIs side by side. */
export const originOf = (port: number): string => `${location.protocol}//${location.hostname}:${port}`;
