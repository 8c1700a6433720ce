// Ready to deploy (issue 15 item 5): the Kubernetes manifests in deploy/ pass the Kubernetes
// schemas (kubernetes-models; `kubectl --dry-run=client` too when a cluster answers), their
// command lines run as written (the shard and merge jobs on a small pyramid), and the Docker
// image builds and serves the gallery where a Docker daemon is reachable (skipped LOUDLY otherwise).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { Service } from 'kubernetes-models/v1/Service';
import { cli } from '../cli/helpers.js';
import { requireBuild, ROOT } from './fixtures.js';

const DEPLOY = path.join(ROOT, 'deploy');
type Manifest = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  // biome-ignore lint/suspicious/noExplicitAny: manifests are walked by path in the assertions
  spec: Record<string, any>;
};
const manifests: { file: string; doc: Manifest }[] = readdirSync(DEPLOY)
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .flatMap((file) => parseAllDocuments(readFileSync(path.join(DEPLOY, file), 'utf8')).map((d) => ({ file, doc: d.toJSON() as Manifest })));
const byKind = (kind: string, name?: string) => manifests.map((m) => m.doc).filter((d) => d.kind === kind && (!name || d.metadata.name === name));

const MODELS: Record<string, new (d: never) => { validate(): void }> = {
  'apps/v1/Deployment': Deployment as never,
  'batch/v1/Job': Job as never,
  'v1/PersistentVolumeClaim': PersistentVolumeClaim as never,
  'v1/Service': Service as never,
};

describe('deploy/ manifests', () => {
  test('every document validates against its Kubernetes schema', () => {
    expect(manifests.map((m) => `${m.file}: ${m.doc.kind}/${m.doc.metadata.name}`)).toEqual([
      'merge-job.yaml: Job/tilegraph-merge',
      'pyramid-job.yaml: PersistentVolumeClaim/tilegraph-tiles',
      'pyramid-job.yaml: Job/tilegraph-pyramid',
      'serve.yaml: Deployment/tilegraph',
      'serve.yaml: Service/tilegraph',
    ]);
    for (const { file, doc } of manifests) {
      const Model = MODELS[`${doc.apiVersion}/${doc.kind}`];
      expect(Model).toBeDefined();
      expect(() => new Model!(doc as never).validate()).not.toThrow();
      // And a broken copy is caught (the check has teeth).
      const broken = structuredClone(doc) as Manifest;
      broken.spec = { ...broken.spec, [doc.kind === 'Service' ? 'ports' : doc.kind === 'PersistentVolumeClaim' ? 'accessModes' : 'template']: 'oops' };
      expect(() => new Model!(broken as never).validate()).toThrow();
      expect(file).toMatch(/\.yaml$/);
    }
  });

  test('the Service selects the Deployment’s pods and port; the probes ask /health', () => {
    const [d] = byKind('Deployment', 'tilegraph');
    const [svc] = byKind('Service', 'tilegraph');
    const labels = d!.spec.template.metadata.labels as Record<string, string>;
    for (const [k, v] of Object.entries(svc!.spec.selector as Record<string, string>)) expect(labels[k]).toBe(v);
    expect(d!.spec.selector.matchLabels).toEqual(svc!.spec.selector);
    const c = d!.spec.template.spec.containers[0];
    expect(c.ports.map((p: { name: string }) => p.name)).toContain(svc!.spec.ports[0].targetPort);
    expect(c.readinessProbe.httpGet.path).toBe('/health');
    expect(c.livenessProbe.httpGet.path).toBe('/health');
    expect(c.args[0]).toBe('serve');
    // one render worker per core of the pod's CPU limit (Node would count the node's cores)
    expect(Number(c.args[c.args.indexOf('--workers') + 1])).toBe(Number(c.resources.limits.cpu));
    expect(c.env).toEqual(expect.arrayContaining([{ name: 'HOST', value: '0.0.0.0' }]));
  });

  test('the image, npm start and the bench start node with the same flags: --single-threaded-gc', async () => {
    const { imageNodeFlags } = await import(path.join(ROOT, 'bench/lib.mjs'));
    const flags = imageNodeFlags(ROOT) as string[];
    expect(flags).toEqual(['--single-threaded-gc']);
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).toBe(`node ${flags.join(' ')} dist/hosts/cli/main.js serve --style examples`);
    // The server bench reads them from the Dockerfile (so it measures the image's command line).
    expect(readFileSync(path.join(ROOT, 'bench/server.mjs'), 'utf8')).toMatch(/imageNodeFlags\(root\)/);
    // The manifests run the image's ENTRYPOINT (no command of their own) where they start a server or a pyramid.
    for (const name of ['tilegraph', 'tilegraph-pyramid']) {
      const [d] = [...byKind('Deployment', name), ...byKind('Job', name)];
      expect(d!.spec.template.spec.containers[0].command).toBeUndefined();
    }
  });

  test('the Indexed Job shards by JOB_COMPLETION_INDEX over its completions; both jobs share the volume', () => {
    const [job] = byKind('Job', 'tilegraph-pyramid');
    const [merge] = byKind('Job', 'tilegraph-merge');
    expect(job!.spec.completionMode).toBe('Indexed');
    const args = job!.spec.template.spec.containers[0].args as string[];
    expect(args[0]).toBe('tiles');
    expect(args[args.indexOf('--shard') + 1]).toBe(`$(JOB_COMPLETION_INDEX)/${job!.spec.completions}`);
    expect(args[args.indexOf('--out') + 1]).toMatch(/^\/out\/.*\{shard\}\.pmtiles$/);
    const claim = (j: Manifest) => j.spec.template.spec.volumes[0].persistentVolumeClaim.claimName;
    expect(claim(job!)).toBe(byKind('PersistentVolumeClaim')[0]!.metadata.name);
    expect(claim(merge!)).toBe(claim(job!));
  });

  test('their command lines run as written: every shard of a small pyramid, then the merge', async () => {
    requireBuild();
    const [job] = byKind('Job', 'tilegraph-pyramid');
    const [merge] = byKind('Job', 'tilegraph-merge');
    const out = mkdtempSync(path.join(os.tmpdir(), 'tilegraph-deploy-'));
    try {
      const n = job!.spec.completions as number;
      for (let i = 0; i < n; i++) {
        // Kubernetes expands $(JOB_COMPLETION_INDEX); /out is the volume. Zoom 2 keeps it quick.
        const args = (job!.spec.template.spec.containers[0].args as string[]).map((a) =>
          a.replace('$(JOB_COMPLETION_INDEX)', String(i)).replace(/^\/out\//, out + '/'),
        );
        args[args.indexOf('--max-zoom') + 1] = '2';
        const r = await cli(args);
        expect(r.stderr).not.toMatch(/error/);
        expect(r.code).toBe(0);
      }
      expect(readdirSync(out).filter((f) => f.endsWith('.pmtiles'))).toHaveLength(n);
      const shell = (merge!.spec.template.spec.containers[0].args as string[])[0]!
        .replace(/^exec node dist\/hosts\/cli\/main\.js /, '')
        .replaceAll('/out/', out + '/');
      const parts = shell.split(' ');
      const inputs = readdirSync(out)
        .filter((f) => /^part-\d+\.pmtiles$/.test(f))
        .map((f) => path.join(out, f));
      const r = await cli([...parts.filter((p) => !p.includes('*')), ...inputs]);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/world\.pmtiles \(21 tiles, zoom 0\.\.2\)/);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 120_000);

  const kubectl = spawnSync('kubectl', ['version', '--request-timeout=3s', '-o', 'json'], { encoding: 'utf8' });
  const cluster = kubectl.status === 0 && /serverVersion/.test(kubectl.stdout);
  if (!cluster) console.warn('\n!!! kubectl finds no cluster: `kubectl apply --dry-run=client` is SKIPPED (the schema check above stands in for it).\n');
  (cluster ? test : test.skip)('kubectl apply --dry-run=client accepts every manifest', () => {
    const out = execFileSync('kubectl', ['apply', '--dry-run=client', '-f', DEPLOY], { encoding: 'utf8' });
    expect(out).toMatch(/deployment.apps\/tilegraph created \(dry run\)/);
  });
});

describe('the Docker image', () => {
  const docker = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], { encoding: 'utf8', timeout: 15_000 });
  const daemon = docker.status === 0 && docker.stdout.trim() !== '';
  if (!daemon) console.warn('\n!!! NO DOCKER DAEMON reachable: the Docker image build and run test is SKIPPED.\n');
  (daemon ? test : test.skip)(
    'builds, reports healthy and serves the gallery',
    async () => {
      expect(existsSync(path.join(ROOT, 'Dockerfile'))).toBe(true);
      const tag = `tilegraph-test:${process.pid}`;
      execFileSync('docker', ['build', '-t', tag, ROOT], { stdio: 'pipe', timeout: 900_000 });
      const id = execFileSync('docker', ['run', '-d', '-p', '127.0.0.1::8080', tag], { encoding: 'utf8' }).trim();
      try {
        const port = execFileSync('docker', ['port', id, '8080/tcp'], { encoding: 'utf8' }).trim().split(':').pop();
        let health: Response | undefined;
        for (let i = 0; i < 120 && !health?.ok; i++) {
          health = await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined);
          if (!health?.ok) await new Promise((r) => setTimeout(r, 500));
        }
        expect(health?.ok).toBe(true);
        const page = await (await fetch(`http://127.0.0.1:${port}/`)).text();
        expect(page).toMatch(/tilegraph: \d+ styles/);
        const { styles } = (await (await fetch(`http://127.0.0.1:${port}/styles`)).json()) as { styles: { name: string; thumbnail: string }[] };
        const world = styles.find((x) => x.name === 'World')!;
        const tile = await fetch(world.thumbnail.replace(/^https?:\/\/[^/]+/, `http://127.0.0.1:${port}`));
        expect(tile.status).toBe(200);
        expect(tile.headers.get('content-type')).toBe('image/png');
      } finally {
        spawnSync('docker', ['rm', '-f', id]);
        spawnSync('docker', ['rmi', '-f', tag]);
      }
    },
    1_200_000,
  );
});
