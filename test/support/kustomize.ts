import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

/**
 * The part of kustomize that deploy/ uses, in JavaScript, so that `npm test` renders the manifests
 * without kubectl: `resources` (files and directories), `images` (newName, newTag) and `patches`
 * (a JSON 6902 operation list with a kind/name target, or a `$patch: delete` of one resource).
 * Any other field of a kustomization is refused rather than ignored, so deploy/ cannot drift into
 * what this renderer does not do; where kubectl is installed the test compares with `kubectl kustomize`.
 */
export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; [key: string]: unknown };
  [key: string]: unknown;
}

const KNOWN_FIELDS = new Set(['apiVersion', 'kind', 'resources', 'images', 'patches']);

interface Kustomization {
  resources?: string[];
  images?: { name: string; newName?: string; newTag?: string }[];
  patches?: { path?: string; patch?: string; target?: { kind?: string; name?: string } }[];
}

export function kustomize(dir: string): Manifest[] {
  const file = join(dir, 'kustomization.yaml');
  if (!existsSync(file)) throw new Error(`${dir}: no kustomization.yaml`);
  const spec = readYaml(file)[0] as Kustomization & Record<string, unknown>;
  const unknown = Object.keys(spec).filter((key) => !KNOWN_FIELDS.has(key));
  if (unknown.length) throw new Error(`${file}: ${unknown.join(', ')} not supported by test/support/kustomize.ts`);
  let manifests: Manifest[] = [];
  for (const entry of spec.resources ?? []) {
    const path = resolve(dir, entry);
    const found = statSync(path).isDirectory() ? kustomize(path) : (readYaml(path) as Manifest[]);
    for (const manifest of found) {
      if (manifests.some((other) => sameResource(other, manifest)))
        throw new Error(`${path}: ${manifest.kind}/${manifest.metadata.name} is declared twice`);
      manifests.push(manifest);
    }
  }
  for (const patch of spec.patches ?? []) manifests = applyPatch(manifests, patch, dir);
  for (const image of spec.images ?? []) for (const manifest of manifests) setImage(manifest, image);
  return manifests;
}

function readYaml(path: string): unknown[] {
  return parseAllDocuments(readFileSync(path, 'utf8'))
    .map((document) => {
      if (document.errors.length) throw new Error(`${path}: ${document.errors[0]!.message}`);
      return document.toJS() as unknown;
    })
    .filter((value) => value !== null && value !== undefined);
}

const sameResource = (a: Manifest, b: Manifest) =>
  a.kind === b.kind && a.metadata.name === b.metadata.name && a.apiVersion.split('/')[0] === b.apiVersion.split('/')[0];

type Operation = { op: 'add' | 'replace' | 'remove'; path: string; value?: unknown };

function applyPatch(
  manifests: Manifest[],
  patch: NonNullable<Kustomization['patches']>[number],
  dir: string,
): Manifest[] {
  const documents = patch.path
    ? readYaml(join(dir, patch.path))
    : parseAllDocuments(patch.patch ?? '').map((document) => document.toJS() as unknown);
  const [content] = documents;
  if (Array.isArray(content)) {
    const { kind, name } = patch.target ?? {};
    const targets = manifests.filter(
      (manifest) =>
        (kind === undefined || manifest.kind === kind) && (name === undefined || manifest.metadata.name === name),
    );
    if (targets.length === 0) throw new Error(`${dir}: patch ${patch.path ?? ''} matches no resource`);
    for (const target of targets) for (const operation of content as Operation[]) applyOperation(target, operation);
    return manifests;
  }
  const deletion = content as Partial<Manifest> & { $patch?: string };
  if (deletion?.$patch !== 'delete')
    throw new Error(`${dir}: only JSON 6902 patches and "$patch: delete" are supported by test/support/kustomize.ts`);
  const kept = manifests.filter((manifest) => !sameResource(manifest, deletion as Manifest));
  if (kept.length === manifests.length)
    throw new Error(`${dir}: "$patch: delete" of ${deletion.kind}/${deletion.metadata?.name} matches no resource`);
  return kept;
}

function applyOperation(target: Manifest, operation: Operation): void {
  const keys = operation.path
    .split('/')
    .slice(1)
    .map((key) => key.replace(/~1/g, '/').replace(/~0/g, '~'));
  const last = keys.pop()!;
  let parent: unknown = target;
  for (const key of keys) {
    parent = (parent as Record<string, unknown>)?.[key];
    if (parent === undefined)
      throw new Error(`${target.kind}/${target.metadata.name}: ${operation.path} does not exist`);
  }
  if (Array.isArray(parent)) {
    const list = parent as unknown[];
    const index = last === '-' ? list.length : Number(last);
    if (operation.op === 'add') list.splice(index, 0, operation.value);
    else if (index >= list.length)
      throw new Error(`${target.kind}/${target.metadata.name}: ${operation.path} does not exist`);
    else if (operation.op === 'replace') list[index] = operation.value;
    else list.splice(index, 1);
    return;
  }
  const container = parent as Record<string, unknown>;
  if (operation.op !== 'add' && !(last in container))
    throw new Error(`${target.kind}/${target.metadata.name}: ${operation.path} does not exist`);
  if (operation.op === 'remove') delete container[last];
  else container[last] = operation.value;
}

function setImage(manifest: Manifest, image: NonNullable<Kustomization['images']>[number]): void {
  const pod = (
    manifest.spec as
      { template?: { spec?: { containers?: { image: string }[]; initContainers?: { image: string }[] } } } | undefined
  )?.template?.spec;
  for (const container of [...(pod?.containers ?? []), ...(pod?.initContainers ?? [])]) {
    const [name, tag] = splitImage(container.image);
    if (name !== image.name) continue;
    container.image = `${image.newName ?? name}${(image.newTag ?? tag) ? `:${image.newTag ?? tag}` : ''}`;
  }
}

function splitImage(reference: string): [string, string | undefined] {
  const colon = reference.lastIndexOf(':');
  return colon > reference.lastIndexOf('/')
    ? [reference.slice(0, colon), reference.slice(colon + 1)]
    : [reference, undefined];
}

/** The repository's deploy/ folder. */
export const DEPLOY_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'deploy');
