import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { parse } from 'yaml';
import { MODULES } from '../../src/api/modules';
import { CAPABILITIES } from '../../src/main';
import { DEAD_LETTER_TOPIC, topicFor } from '../../src/workers/kafka-publisher';
import { SERVER_IMAGES } from '../support/external-servers';

/**
 * `docker compose config` cannot run here (no compose plugin, no engine), so the file is checked
 * against the Compose Specification's JSON schema, as the npm package docker-compose ships it
 * (schema/compose-spec.json, the compose-spec project's schema), after YAML merge keys are applied as
 * compose applies them.
 */
const COMPOSE_FILE = path.join(__dirname, '../../infra/docker-compose.yml');
const COMPOSE_SCHEMA = require.resolve('docker-compose/schema/compose-spec.json');

interface Service {
  image?: string;
  command?: string[];
  environment?: Record<string, string | number>;
  volumes?: string[];
  profiles?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test?: string[]; disable?: boolean };
}

const compose = parse(readFileSync(COMPOSE_FILE, 'utf8'), { merge: true }) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
};
const service = (name: string) => compose.services[name] as Service;

describe('infra/docker-compose.yml', () => {
  it('is a valid Compose file', () => {
    const schema = JSON.parse(readFileSync(COMPOSE_SCHEMA, 'utf8')) as object;
    // The schema names draft-07 by an https URL ajv does not know; it is draft-07, which ajv checks.
    const validate = new Ajv({ allErrors: true, validateSchema: false }).compile(schema);
    expect(validate(compose) ? [] : validate.errors).toEqual([]);
  });

  it('runs the server images the adapter tests run against', () => {
    expect(service('esdb').image).toBe(SERVER_IMAGES.esdb);
    expect(service('mongo').image).toBe(SERVER_IMAGES.mongo);
    expect(service('kafka').image).toBe(SERVER_IMAGES.kafka);
    expect(service('kafka-topics').image).toBe(SERVER_IMAGES.kafka);
  });

  it("keeps Kafka's log in its volume, so that recreating the container keeps the topics", () => {
    const kafka = service('kafka');
    const logDirs = String(kafka.environment?.KAFKA_LOG_DIRS);
    const mounted = (kafka.volumes ?? []).map((volume) => volume.split(':') as [string, string]);
    expect(mounted.some(([name, target]) => name in compose.volumes && logDirs.startsWith(target))).toBe(
      true,
    );
  });

  it('creates every topic the relay publishes to, and the broker creates none on first use', () => {
    expect(service('kafka').environment?.KAFKA_AUTO_CREATE_TOPICS_ENABLE).toBe('false');
    const script = (service('kafka-topics').command ?? []).join('\n');
    const loop = /for module in ([a-z ]+); do\s+create "suite\.\$\$module\.events"/.exec(script);
    const created = (loop?.[1] ?? '').split(' ').map((module) => topicFor(`${module}.x`));
    const streamFamilies = [...MODULES, ...CAPABILITIES].map(({ id }) => id);
    expect(new Set(created)).toEqual(new Set(streamFamilies.map((family) => topicFor(`${family}.x`))));
    expect(script).toContain(`create ${DEAD_LETTER_TOPIC} 1`);
    expect(service('relay').depends_on?.['kafka-topics']).toEqual({
      condition: 'service_completed_successfully',
    });
  });

  it("checks each long-running role's readiness on its metrics port, as the image does", () => {
    const roles = ['projector', 'worker', 'relay', 'auditor', 'api'];
    for (const role of roles) {
      expect((service(role).healthcheck?.test ?? []).join(' ')).toContain("'http://127.0.0.1:9464/readyz'");
    }
    const dockerfile = readFileSync(path.join(__dirname, '../../infra/Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(
      /HEALTHCHECK [\s\S]*\(process\.env\.SUITE_METRICS_PORT \|\| 9464\) \+ '\/readyz'/,
    );
  });

  it('seeds the events alone: the projector is the only process that projects them on a first boot', () => {
    expect(service('seed').command).toEqual(['seed', '--events-only']);
  });

  it('runs a witness only when asked (its profile), with a volume of its own, and tells the auditor of witnesses', () => {
    const witness = service('witness');
    expect(witness.profiles).toEqual(['witness']);
    expect(witness.command).toEqual(['witness']);
    const [volume] = (witness.volumes ?? []).map((mount) => mount.split(':')[0] as string);
    expect(Object.keys(compose.volumes)).toContain(volume);
    const others = Object.entries(compose.services).filter(([name]) => name !== 'witness');
    expect(
      others.flatMap(([, other]) => other.volumes ?? []).some((mount) => mount.startsWith(`${volume}:`)),
    ).toBe(false);
    expect(service('auditor').environment?.SUITE_WITNESSES).toBe('${SUITE_WITNESSES:-}');
  });

  it('reports Mongo healthy only once its node is the primary', () => {
    const check = (service('mongo').healthcheck?.test ?? []).join(' ');
    expect(check).toContain('rs.initiate(');
    expect(check).toMatch(/quit\(db\.hello\(\)\.isWritablePrimary \? 0 : 1\)/);
  });
});
