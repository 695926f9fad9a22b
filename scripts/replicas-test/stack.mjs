// The stack of `npm run test:replicas`: docker-compose.yml, with the replicas restricted as the
// Kubernetes manifests restrict them (deploy/base/deployment.yaml).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from '../docker/commands.mjs';
import { composeProject } from '../docker/project.mjs';
import { MAX_TIMEOUT_SECONDS, PROJECT } from './settings.mjs';

/** Writes the override (read-only root, /tmp the only writable place, no capabilities, no privilege escalation). */
function overrideFile(work) {
  const path = join(work, 'replicas.override.yml');
  // JSON is YAML: no YAML writer needed.
  writeFileSync(
    path,
    JSON.stringify({
      services: {
        app: {
          read_only: true,
          tmpfs: ['/tmp'],
          cap_drop: ['ALL'],
          security_opt: ['no-new-privileges:true'],
          environment: { MAX_TIMEOUT_SECONDS: String(MAX_TIMEOUT_SECONDS) },
        },
      },
    }),
  );
  return path;
}

/** The Compose project of the replica test; its override file is written into `work`. */
export function replicaProject(compose, work) {
  return composeProject(compose, PROJECT, [join(root, 'docker-compose.yml'), overrideFile(work)]);
}
