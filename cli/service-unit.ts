// The systemd unit `nearcast install-service` writes; deploy/nearcast.service is this text with the defaults (a test
// keeps the two equal).

export interface ServiceUnitOptions {
  /** The system user the server runs as (created by `install-service --yes` when missing). */
  user: string;
  /** The data dir: the only place the service may write. */
  dataDir: string;
  /** The executable. */
  execPath: string;
}

export const SERVICE_DEFAULTS: ServiceUnitOptions = { user: "nearcast", dataDir: "/var/lib/nearcast", execPath: "/usr/local/bin/nearcast" };

/** Settings (NEARCAST_PUBLIC_URL, TWILIO_*, ...) for the service, one NAME=value per line; optional. */
export const ENVIRONMENT_FILE = "/etc/nearcast/nearcast.env";

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
# Settings such as NEARCAST_PUBLIC_URL, NEARCAST_HOST and TWILIO_*; the leading "-" lets the service start without it.
EnvironmentFile=-${ENVIRONMENT_FILE}
ExecStart=${o.execPath} serve --data-dir ${o.dataDir}
# SIGTERM stops it gracefully (sends in flight finish, claims go back to the queue); SIGHUP is ignored.
KillSignal=SIGTERM
TimeoutStopSec=30
Restart=on-failure
RestartSec=5
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
