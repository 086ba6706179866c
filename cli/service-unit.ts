// The systemd unit `nearcast install-service` writes; deploy/nearcast.service is this text with the defaults (a test
// keeps the two equal).
import { SERVICE_ENV_FILE } from "../src/service-env.ts";

export interface ServiceUnitOptions {
  /** The system user the server runs as (created by `install-service --yes` when missing). */
  user: string;
  /** The data dir: the only place the service may write. */
  dataDir: string;
  /** The executable. */
  execPath: string;
  /** The service's settings (src/service-env.ts: NEARCAST_ENV_FILE, else /etc/nearcast/nearcast.env). */
  envFile: string;
}

export const SERVICE_DEFAULTS: ServiceUnitOptions = { user: "nearcast", dataDir: "/var/lib/nearcast", execPath: "/usr/local/bin/nearcast", envFile: SERVICE_ENV_FILE };

export function serviceUnit(o: ServiceUnitOptions): string {
  return `# Nearcast as a systemd service: \`nearcast install-service --help\` writes this file and says how to enable it.
[Unit]
Description=Nearcast (QR subscriptions and SMS/WhatsApp promotions)
After=network-online.target
Wants=network-online.target

[Service]
Type=simple
User=${o.user}
Group=${o.user}
# Settings such as NEARCAST_PUBLIC_URL, NEARCAST_HOST and TWILIO_* (0600: it holds secrets); the other nearcast
# commands read it too, to find this data dir. The leading "-" lets the service start without it.
EnvironmentFile=-${o.envFile}
ExecStart=${o.execPath} serve --data-dir ${o.dataDir}
# SIGTERM stops it gracefully (sends in flight finish, claims go back to the queue); SIGHUP is ignored.
KillSignal=SIGTERM
TimeoutStopSec=30
Restart=on-failure
RestartSec=5
# Exit 2 is a configuration error (a bad setting, a database it may not open): restarting cannot fix it.
RestartPreventExitStatus=2
UMask=0077
NoNewPrivileges=true
ProtectSystem=strict
ProtectHome=true
PrivateTmp=true
PrivateDevices=true
ProtectKernelTunables=true
ProtectKernelModules=true
ProtectControlGroups=true
RestrictSUIDSGID=true
LockPersonality=true
ReadWritePaths=${o.dataDir}

[Install]
WantedBy=multi-user.target
`;
}
