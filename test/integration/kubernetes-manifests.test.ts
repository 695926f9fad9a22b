// deploy/ (Kubernetes manifests, kustomize) checked offline: every overlay renders, every resource
// validates against the Kubernetes and KEDA schemas, and the manifests agree with the code: the
// port, the probe paths (asked of the real app), every variable in the configuration schema, the
// metric names the autoscaler queries (scraped from the real /metrics), the drain timings.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import { ConfigMap, Service, ServiceAccount, type IContainer, type IPodSpec } from 'kubernetes-models/v1';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { parse } from 'yaml';
import { CONFIG_VARIABLES, loadConfig } from '../../src/config.js';
import { createMetrics } from '../../src/metrics.js';
import type { JsonAnswer } from '../support/json.js';
import { DEPLOY_DIR, kustomize, type Manifest } from '../support/kustomize.js';
import { startTestApp, type TestApp } from '../support/testApp.js';

const OVERLAYS = ['production', 'production-keda'];
const APP = 'invoice-pdf-x402';
const REDIS = 'invoice-pdf-x402-redis';

/** The schema of every kind deploy/ may use: a kind not listed here fails the test. */
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Service': Service,
  'v1/ServiceAccount': ServiceAccount,
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'keda.sh/v1alpha1/ScaledObject': ScaledObject,
};

const rendered = new Map(OVERLAYS.map((overlay) => [overlay, kustomize(join(DEPLOY_DIR, 'overlays', overlay))]));
const find = (manifests: Manifest[], kind: string, name: string) =>
  manifests.find((manifest) => manifest.kind === kind && manifest.metadata.name === name);
const must = (manifests: Manifest[], kind: string, name: string) => {
  const found = find(manifests, kind, name);
  assert.ok(found, `${kind}/${name} is rendered`);
  return found as Manifest & { spec: Record<string, JsonAnswer>; data?: Record<string, string> };
};
const podSpec = (manifest: Manifest) =>
  (manifest as unknown as { spec: { template: { spec: IPodSpec } } }).spec.template.spec;
const appContainer = (manifests: Manifest[]) => podSpec(must(manifests, 'Deployment', APP)).containers[0] as IContainer;

/** The Secret's keys, with values of the right shape (the Secret itself is the operator's). */
const SECRET_EXAMPLE: Record<string, string> = {
  FACILITATOR_URL: 'https://facilitator.example.com',
  PAY_TO: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
  FACILITATOR_AUTH_HEADER: 'Bearer example',
  // An example key, no account's: a key of the public test mnemonic would be refused.
  RECEIPT_SIGNING_KEY: `0x${'11'.repeat(32)}`,
  REDIS_URL: `redis://${REDIS}:6379`,
};

/** The environment a pod of the overlay gets: the ConfigMap, then the env entries (Secret keys). */
function podEnvironment(manifests: Manifest[]): Record<string, string> {
  const container = appContainer(manifests);
  const env: Record<string, string> = {};
  for (const source of container.envFrom ?? [])
    Object.assign(env, must(manifests, 'ConfigMap', source.configMapRef!.name!).data);
  for (const entry of container.env ?? []) {
    const key = entry.valueFrom?.secretKeyRef?.key;
    env[entry.name] = entry.value ?? (key !== undefined ? SECRET_EXAMPLE[key]! : '');
  }
  return env;
}

let app: TestApp;
let metricNames: Set<string>;
let ready = true;
before(async () => {
  const metrics = createMetrics();
  app = await startTestApp(
    { COMPUTE_THREADS: '0' },
    { metrics, readiness: async () => ({ ready, checks: { example: ready } }) },
  );
  const text = await (await fetch(`${app.url}/metrics`, { signal: AbortSignal.timeout(10_000) })).text();
  metricNames = new Set([...text.matchAll(/^# TYPE (\S+) /gm)].map((match) => match[1]!));
});
after(() => app?.close());

test('every overlay renders and every resource validates against the Kubernetes and KEDA schemas', () => {
  for (const [overlay, manifests] of rendered) {
    assert.ok(manifests.length >= 10, `${overlay}: ${manifests.length} resources`);
    for (const manifest of manifests) {
      const Model = MODELS[`${manifest.apiVersion}/${manifest.kind}`];
      assert.ok(Model, `${overlay}: ${manifest.apiVersion} ${manifest.kind} has a schema in this test`);
      assert.doesNotThrow(
        () => new Model(manifest as never).validate(),
        `${overlay}: ${manifest.kind}/${manifest.metadata.name}`,
      );
    }
  }
});

test('the schemas reject a broken manifest (the validation is not a no-op)', () => {
  const deployment = structuredClone(must(rendered.get('production')!, 'Deployment', APP));
  deployment.spec.template.spec.containers[0].ports[0].containerPort = 'eighty';
  assert.throws(() => new Deployment(deployment as never).validate());
  const scaledObject = structuredClone(must(rendered.get('production-keda')!, 'ScaledObject', APP));
  delete scaledObject.spec.triggers[0].type;
  assert.throws(() => new ScaledObject(scaledObject as never).validate());
});

const kubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;
test(
  'the JavaScript rendering is what kubectl kustomize renders',
  { skip: kubectl ? false : 'kubectl is not installed: the renderer is compared with kustomize only where it is' },
  () => {
    const key = (manifest: Manifest) => `${manifest.apiVersion}/${manifest.kind}/${manifest.metadata.name}`;
    const sorted = (manifests: Manifest[]) => [...manifests].sort((a, b) => key(a).localeCompare(key(b)));
    for (const [overlay, manifests] of rendered) {
      const out = spawnSync('kubectl', ['kustomize', join(DEPLOY_DIR, 'overlays', overlay)], {
        encoding: 'utf8',
        timeout: 60_000,
      });
      assert.equal(out.status, 0, out.stderr);
      const theirs = out.stdout.split(/^---$/m).map((document) => parse(document) as Manifest);
      assert.deepEqual(sorted(manifests), sorted(theirs), overlay);
    }
  },
);

test('every variable the manifests set is one the service reads, and the result is a valid configuration', () => {
  for (const [overlay, manifests] of rendered) {
    const env = podEnvironment(manifests);
    const unknown = Object.keys(env).filter((name) => !(name in CONFIG_VARIABLES));
    assert.deepEqual(unknown, [], `${overlay}: variables not in src/config.ts`);
    const config = loadConfig(env);
    assert.equal(config.localPaymentMode, false, 'a facilitator, never the embedded local chain');
    assert.equal(config.LOCAL_TEST_CHAIN, 'off');
    assert.equal(config.NODE_ENV, 'production');
    assert.equal(config.PREVIEW, 'off');
    assert.ok(config.REDIS_URL, 'replicas share Redis');
    assert.match(config.PUBLIC_BASE_URL, /^https:\/\//);
  }
  // Secrets come from the Secret, never from the ConfigMap.
  const manifests = rendered.get('production')!;
  const data = must(manifests, 'ConfigMap', APP).data!;
  for (const name of ['FACILITATOR_URL', 'PAY_TO', 'FACILITATOR_AUTH_HEADER', 'RECEIPT_SIGNING_KEY', 'REDIS_URL']) {
    assert.equal(data[name], undefined, `${name} is not in the ConfigMap`);
    const entry = appContainer(manifests).env!.find((candidate) => candidate.name === name);
    assert.equal(entry?.valueFrom?.secretKeyRef?.name, APP, `${name} comes from the Secret`);
  }
});

test('ports agree: the service listens where the container, the Service and Prometheus say', () => {
  const manifests = rendered.get('production')!;
  const config = loadConfig(podEnvironment(manifests));
  const container = appContainer(manifests);
  const http = container.ports!.find((port) => port.name === 'http');
  assert.equal(http?.containerPort, config.PORT);
  assert.equal(config.HOST, '0.0.0.0', 'reachable from outside the pod');
  assert.equal(must(manifests, 'Service', APP).spec.ports[0].targetPort, 'http');
  const annotations = must(manifests, 'Deployment', APP).spec.template.metadata.annotations;
  assert.equal(Number(annotations['prometheus.io/port']), config.PORT);
  assert.equal(annotations['prometheus.io/path'], '/metrics');
  const redisPort = (podSpec(must(manifests, 'StatefulSet', REDIS)).containers[0] as IContainer).ports![0]!;
  assert.equal(new URL(SECRET_EXAMPLE.REDIS_URL!).port, String(redisPort.containerPort));
  assert.equal(new URL(SECRET_EXAMPLE.REDIS_URL!).hostname, must(manifests, 'Service', REDIS).metadata.name);
});

test('the probes ask paths the app answers, and readiness is the one that reports not ready', async () => {
  const container = appContainer(rendered.get('production')!);
  const probes = {
    startup: container.startupProbe,
    readiness: container.readinessProbe,
    liveness: container.livenessProbe,
  };
  assert.deepEqual(Object.fromEntries(Object.entries(probes).map(([name, probe]) => [name, probe?.httpGet?.path])), {
    startup: '/healthz',
    readiness: '/readyz',
    liveness: '/healthz',
  });
  for (const probe of Object.values(probes)) assert.equal(probe!.httpGet!.port, 'http');
  const status = async (path: string) =>
    (await fetch(`${app.url}${path}`, { signal: AbortSignal.timeout(10_000) })).status;
  ready = true;
  assert.equal(await status('/healthz'), 200);
  assert.equal(await status('/readyz'), 200);
  ready = false;
  assert.equal(await status('/readyz'), 503, 'not ready: out of the Service, not restarted');
  assert.equal(await status('/healthz'), 200, 'liveness stays up while not ready');
  ready = true;
});

test('the autoscaler queries metrics the service exports', () => {
  assert.ok(metricNames.has('http_requests_total'), 'the scrape worked');
  const scaledObject = must(rendered.get('production-keda')!, 'ScaledObject', APP);
  const prometheus = scaledObject.spec.triggers.filter((trigger: { type: string }) => trigger.type === 'prometheus');
  assert.equal(prometheus.length, 1);
  const query: string = prometheus[0].metadata.query;
  const names = [...query.matchAll(/([a-z_:][a-z0-9_:]*)\s*\{/g)]
    .map((match) => match[1]!)
    .filter((name) => name !== 'sum');
  assert.ok(names.includes('render_queue_depth'), query);
  for (const name of names) assert.ok(metricNames.has(name), `${name} is in /metrics`);
  // The target per pod is the pool size: every page busy and nothing waiting holds the count.
  const config = loadConfig(podEnvironment(rendered.get('production-keda')!));
  assert.equal(Number(prometheus[0].metadata.threshold), config.RENDER_POOL_SIZE);
  assert.ok(scaledObject.spec.triggers.some((trigger: { type: string }) => trigger.type === 'cpu'));
  assert.equal(scaledObject.spec.scaleTargetRef.name, APP);
  assert.ok(scaledObject.spec.minReplicaCount >= 2, 'never to zero, and room for the PodDisruptionBudget');
});

test('one autoscaler per overlay, and it keeps enough pods for the disruption budget', () => {
  const production = rendered.get('production')!;
  const keda = rendered.get('production-keda')!;
  assert.ok(find(production, 'HorizontalPodAutoscaler', APP) && !find(production, 'ScaledObject', APP));
  assert.ok(
    find(keda, 'ScaledObject', APP) && !find(keda, 'HorizontalPodAutoscaler', APP),
    'KEDA makes its own HPA; two would fight',
  );
  const hpa = must(production, 'HorizontalPodAutoscaler', APP);
  assert.equal(hpa.spec.scaleTargetRef.name, APP);
  assert.equal(hpa.spec.metrics[0].resource.name, 'cpu');
  assert.ok(hpa.spec.minReplicas >= 2);
  assert.equal(must(production, 'PodDisruptionBudget', APP).spec.maxUnavailable, 1);
  assert.equal(must(production, 'Deployment', APP).spec.replicas, undefined, 'the autoscaler owns the replica count');
});

test('selectors pick the pods they mean', () => {
  const manifests = rendered.get('production')!;
  const appLabels = must(manifests, 'Deployment', APP).spec.template.metadata.labels;
  const redisLabels = must(manifests, 'StatefulSet', REDIS).spec.template.metadata.labels;
  const matches = (selector: Record<string, string>, labels: Record<string, string>) =>
    Object.entries(selector).every(([key, value]) => labels[key] === value);
  assert.ok(matches(must(manifests, 'Service', APP).spec.selector, appLabels));
  assert.ok(matches(must(manifests, 'PodDisruptionBudget', APP).spec.selector.matchLabels, appLabels));
  assert.ok(matches(must(manifests, 'NetworkPolicy', APP).spec.podSelector.matchLabels, appLabels));
  assert.ok(matches(must(manifests, 'Service', REDIS).spec.selector, redisLabels));
  assert.ok(
    !matches(must(manifests, 'Service', APP).spec.selector, redisLabels),
    'the app Service does not send to Redis',
  );
  assert.ok(
    matches(must(manifests, 'NetworkPolicy', REDIS).spec.ingress[0].from[0].podSelector.matchLabels, appLabels),
  );
});

test('egress: DNS, Redis and the facilitator only', () => {
  const manifests = rendered.get('production')!;
  const policy = must(manifests, 'NetworkPolicy', APP);
  assert.deepEqual(policy.spec.policyTypes, ['Ingress', 'Egress']);
  const egress = policy.spec.egress as {
    to: Record<string, JsonAnswer>[];
    ports: { port: number | string; protocol: string }[];
  }[];
  assert.equal(egress.length, 3);
  assert.deepEqual(
    egress[0]!.ports.map((port) => port.port),
    [53, 53],
  );
  assert.equal(egress[1]!.to[0]!.podSelector.matchLabels['app.kubernetes.io/name'], REDIS);
  assert.deepEqual(
    egress[1]!.ports.map((port) => port.port),
    [6379],
  );
  assert.ok(
    egress[2]!.to.every((peer) => peer.ipBlock?.cidr && peer.ipBlock.cidr !== '0.0.0.0/0'),
    'the facilitator by its addresses, not the whole internet',
  );
  assert.deepEqual(
    egress[2]!.ports.map((port) => port.port),
    [443],
  );
  const redisPolicy = must(manifests, 'NetworkPolicy', REDIS);
  assert.deepEqual(redisPolicy.spec.policyTypes, ['Ingress', 'Egress']);
  assert.equal(redisPolicy.spec.egress, undefined, 'Redis reaches nothing');
});

test('the pod runs unprivileged on a read-only root, writing only its scratch directory', () => {
  const manifests = rendered.get('production')!;
  for (const [kind, name] of [
    ['Deployment', APP],
    ['StatefulSet', REDIS],
  ] as const) {
    const pod = podSpec(must(manifests, kind, name));
    assert.equal(pod.securityContext?.runAsNonRoot, true, name);
    assert.equal(pod.securityContext?.seccompProfile?.type, 'RuntimeDefault', name);
    assert.equal(pod.automountServiceAccountToken, false, name);
    for (const container of pod.containers) {
      assert.equal(container.securityContext?.allowPrivilegeEscalation, false, name);
      assert.equal(container.securityContext?.readOnlyRootFilesystem, true, name);
      assert.deepEqual(container.securityContext?.capabilities?.drop, ['ALL'], name);
      assert.ok(
        container.resources?.requests?.cpu && container.resources.requests.memory && container.resources.limits?.memory,
        `${name}: requests and a memory limit`,
      );
    }
  }
  // The scratch directory (src/render/scratchDir.ts: under TMPDIR, which the image sets) is the emptyDir.
  const tmpdir = /\bTMPDIR=(\S+)/.exec(readFileSync(join(DEPLOY_DIR, '..', 'Dockerfile'), 'utf8'))?.[1];
  assert.equal(tmpdir, '/tmp');
  const pod = podSpec(must(manifests, 'Deployment', APP));
  const mount = appContainer(manifests).volumeMounts!.find((candidate) => candidate.mountPath === tmpdir);
  assert.ok(mount, 'TMPDIR is mounted');
  assert.ok(pod.volumes!.find((volume) => volume.name === mount.name)?.emptyDir, 'as an emptyDir');
  assert.equal(pod.securityContext?.runAsUser, 1000, "the image's node user");
});

test('a stopping pod announces it, drains, and is given the time the service takes to stop', () => {
  const manifests = rendered.get('production')!;
  const config = loadConfig(podEnvironment(manifests));
  const command = appContainer(manifests).lifecycle!.preStop!.exec!.command!;
  const script = command[command.length - 1]!;
  assert.match(script, /kill -USR2 1\b/, 'the pre-stop notice src/main.ts listens for');
  const notice = Number(/sleep (\d+)/.exec(script)?.[1]);
  assert.ok(notice >= 5, 'time for endpoints and load balancers to stop sending');
  assert.match(readFileSync(join(DEPLOY_DIR, '..', 'src', 'main.ts'), 'utf8'), /process\.on\('SIGUSR2'/);
  // src/main.ts: the deadline, then up to 15 s for settlements already under way, then the browser.
  const grace = podSpec(must(manifests, 'Deployment', APP)).terminationGracePeriodSeconds!;
  assert.ok(grace >= notice + config.SHUTDOWN_DEADLINE_MS / 1000 + 15, `terminationGracePeriodSeconds ${grace}`);
  const strategy = must(manifests, 'Deployment', APP).spec.strategy;
  assert.equal(strategy.rollingUpdate.maxUnavailable, 0, 'a rollout never lowers capacity');
});
