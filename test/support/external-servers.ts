import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import { GenericContainer, Wait, getContainerRuntimeClient, type StartedTestContainer } from 'testcontainers';

/**
 * The servers the distributed adapters' tests run against: the one a `SUITE_TEST_*` variable names, or
 * else a container started through testcontainers when a Docker engine answers. Without either the
 * tests are registered as skipped, with the reason in their title and on the console.
 */
export type ServerKind = 'esdb' | 'mongo' | 'kafka';

const VARIABLES: Record<ServerKind, string> = {
  esdb: 'SUITE_TEST_ESDB_URL',
  mongo: 'SUITE_TEST_MONGO_URL',
  kafka: 'SUITE_TEST_KAFKA_BROKERS',
};

/** The server images the tests start; infra/docker-compose.yml runs the same (a test checks it). */
export const SERVER_IMAGES: Record<ServerKind, string> = {
  esdb: 'eventstore/eventstore:24.10',
  mongo: 'mongo:7',
  kafka: 'apache/kafka:3.9.0',
};

/** Pulling an image on a cold machine takes a while; a server that is already there answers at once. */
const START_TIMEOUT_MS = 300_000;
const DOCKER_PROBE_TIMEOUT_MS = 20_000;

interface RunningServer {
  /** A connection string (EventStoreDB, MongoDB) or a comma-separated broker list (Kafka). */
  address: string;
  stop(): Promise<void>;
}

type ServerSource =
  { available: true; origin: string; start(): Promise<RunningServer> } | { available: false; reason: string };

/**
 * Asks testcontainers whether it finds a container runtime. It runs in a child process because jest
 * registers tests synchronously, and with a time limit so that an unresponsive engine cannot hang the run.
 */
function dockerProblem(): string | null {
  const probe = `require(${JSON.stringify(require.resolve('testcontainers'))})
    .getContainerRuntimeClient()
    .then(() => process.exit(0), (error) => { console.error(error.message); process.exit(1); });`;
  try {
    execFileSync(process.execPath, ['-e', probe], { timeout: DOCKER_PROBE_TIMEOUT_MS, stdio: 'pipe' });
    return null;
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    return stderr || (error as Error).message;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function running(container: StartedTestContainer, address: string): RunningServer {
  return {
    address,
    async stop() {
      await container.stop();
    },
  };
}

const CONTAINERS: Record<ServerKind, () => Promise<RunningServer>> = {
  async esdb() {
    const container = await new GenericContainer(SERVER_IMAGES.esdb)
      .withEnvironment({
        EVENTSTORE_INSECURE: 'true',
        EVENTSTORE_MEM_DB: 'true',
        EVENTSTORE_RUN_PROJECTIONS: 'None',
      })
      .withExposedPorts(2113)
      .withWaitStrategy(Wait.forHttp('/health/live', 2113).forStatusCode(204))
      .start();
    return running(container, `esdb://${container.getHost()}:${container.getMappedPort(2113)}?tls=false`);
  },
  async mongo() {
    const container = await new GenericContainer(SERVER_IMAGES.mongo)
      .withCommand(['--replSet', 'rs0', '--bind_ip_all'])
      .withExposedPorts(27017)
      .withWaitStrategy(Wait.forLogMessage(/Waiting for connections/))
      .start();
    // Transactions need a replica set: a single member, then wait until it is the primary.
    const initiated = await container.exec([
      'mongosh',
      '--quiet',
      '--eval',
      "rs.initiate({ _id: 'rs0', members: [{ _id: 0, host: '127.0.0.1:27017' }] }); " +
        'while (!db.hello().isWritablePrimary) sleep(100);',
    ]);
    if (initiated.exitCode !== 0) throw new Error(`rs.initiate failed: ${initiated.output}`);
    return running(
      container,
      `mongodb://${container.getHost()}:${container.getMappedPort(27017)}/suite-test?directConnection=true`,
    );
  },
  async kafka() {
    // Kafka hands clients the address it advertises, so the host port is chosen before the start.
    const host = (await getContainerRuntimeClient()).info.containerRuntime.host;
    const port = await freePort();
    const container = await new GenericContainer(SERVER_IMAGES.kafka)
      .withEnvironment({
        KAFKA_NODE_ID: '1',
        KAFKA_PROCESS_ROLES: 'broker,controller',
        KAFKA_LISTENERS: 'PLAINTEXT://:9092,CONTROLLER://:9093',
        KAFKA_ADVERTISED_LISTENERS: `PLAINTEXT://${host}:${port}`,
        KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
        KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
        KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
        KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
        KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
        KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
        KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
      })
      .withExposedPorts({ container: 9092, host: port })
      .withWaitStrategy(Wait.forLogMessage(/Kafka Server started/))
      .start();
    return running(container, `${host}:${port}`);
  },
};

function serverSource(kind: ServerKind): ServerSource {
  const variable = VARIABLES[kind];
  const configured = process.env[variable];
  if (configured) {
    return {
      available: true,
      origin: variable,
      start: async () => ({ address: configured, stop: async () => undefined }),
    };
  }
  const problem = dockerProblem();
  if (problem) return { available: false, reason: `${variable} not set and no Docker engine (${problem})` };
  return { available: true, origin: 'testcontainers', start: CONTAINERS[kind] };
}

/**
 * Registers `define`'s tests against a server of this kind; `address()` is valid inside the tests.
 * Without a server, one skipped test whose title gives the reason stands in for them.
 */
export function describeWithServer(
  kind: ServerKind,
  title: string,
  define: (address: () => string) => void,
): void {
  const source = serverSource(kind);
  if (!source.available) {
    process.stderr.write(`${title}: skipped: ${source.reason}\n`);
    describe(title, () => {
      it.skip(`skipped: ${source.reason}`, () => undefined);
    });
    return;
  }
  describe(`${title} (server from ${source.origin})`, () => {
    let server: RunningServer | undefined;
    beforeAll(async () => {
      server = await source.start();
    }, START_TIMEOUT_MS);
    afterAll(() => server?.stop());
    define(() => {
      if (!server) throw new Error(`The ${kind} server did not start`);
      return server.address;
    });
  });
}
