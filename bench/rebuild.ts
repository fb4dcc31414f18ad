import { serviceDeskLog } from './service-desk-log';
import { ceiling, readModels, rebuild } from './rebuild-ceiling';
import { flags, machine, median, numberFlag, ratio, round, table, writeSection } from './support';

/**
 * A full `suite rebuild` (every read model, from the whole log) against the ceiling: inserting the same
 * final documents, with their search text, into the same tables in one transaction.
 * Usage: tsx bench/rebuild.ts [--events 1000000] [--runs 3]
 */
const options = flags();
const EVENTS = numberFlag(options, 'events', 1_000_000);
const RUNS = numberFlag(options, 'runs', 3);

async function main(): Promise<void> {
  const log = await serviceDeskLog({ events: EVENTS });
  const rebuildSeconds: number[] = [];
  const ceilingSeconds: number[] = [];
  let documents = 0;
  for (let run = 0; run < RUNS; run++) {
    rebuildSeconds.push(await rebuild(log.dataDir));
    const models = readModels(log.dataDir);
    documents = [...models.tables.values()].reduce((sum, { rows }) => sum + rows.length, 0);
    ceilingSeconds.push(ceiling(models));
    console.log(
      `run ${run + 1}: rebuild ${rebuildSeconds[run]?.toFixed(2)} s, ceiling ${ceilingSeconds[run]?.toFixed(2)} s`,
    );
  }
  const rebuildRate = log.events / median(rebuildSeconds);
  const ceilingRate = log.events / median(ceilingSeconds);
  const rows = [
    [
      '`suite rebuild`',
      round(median(rebuildSeconds), 2),
      round(rebuildRate),
      round(documents / median(rebuildSeconds)),
    ],
    [
      'ceiling: same documents, one transaction',
      round(median(ceilingSeconds), 2),
      round(ceilingRate),
      round(documents / median(ceilingSeconds)),
    ],
  ];
  const body = `## Rebuild of every read model

Reproduce with \`npm run bench:rebuild -- --events ${EVENTS}\` (\`bench/rebuild.ts\`; the generated log is
cached in the temp directory between runs). The log: the service desk's demo data plus synthetic requests
taken through the seed's workflow by the request decider (${round(log.events)} events, ${round(log.requests)}
requests, ${round(documents)} documents after the rebuild), appended as the API appends them: each request's
form answers sealed under its own key, so one event in five is opened as it is replayed. The rebuild is the code path of
\`suite rebuild\` (\`runtime.rebuild()\`: drop every read model, replay the whole log through every
projector). The ceiling inserts the same final documents and their search text into the same tables
(same indexes, FTS5 trigram tables with the same settings, the word indexes, WAL,
\`synchronous=NORMAL\`) with prepared statements in one transaction, and the words of the texts into the
same vocabularies (read from the rebuilt file: the ceiling does not split the texts into words); its
events/s is the log's size over its time. Medians of ${RUNS} runs,
rebuild and ceiling alternating. Machine: ${machine()}.

${table(['', 'seconds', 'events/s', 'documents/s'], rows)}

Rebuild / ceiling: **${ratio(rebuildRate, ceilingRate)}**. Target: >= 100,000 events/s.`;
  writeSection('rebuild', body);
  console.log(body);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
