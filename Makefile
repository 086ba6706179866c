# Nearcast: `make run` to use it, `make test` to check it. Both install what is missing first.
BUN := node_modules/.bin/bun
WEB_SOURCES := $(shell find web src/schemas -type f 2>/dev/null) scripts/build-public-pages.ts scripts/web-bundle.ts
APP_SOURCES := $(shell find src cli migrations -type f 2>/dev/null)

.PHONY: run test build release web install chromium typecheck migrations bench clean

run: build
	./dist/nearcast serve --data-dir ./data

# `make build` for this machine; `make build TARGET=linux-arm64` (or linux-x64) writes dist/nearcast-<target>.
build: $(if $(TARGET),dist/nearcast-$(TARGET),dist/nearcast)

# Both platforms and dist/SHA256SUMS.
release: node_modules/.installed
	$(BUN) scripts/build.ts --release

test: install chromium web
	./scripts/run-tests.sh

install: node_modules/.installed

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

# Browser tests drive Debian's chromium, the claim-durability smoke test traces the server with strace, the arm64
# smoke test runs dist/nearcast-linux-arm64 under qemu-user, the nginx smoke test runs deploy/nginx.conf in
# nginx-light (asked with curl); installed once. A machine that cannot install them (no
# root, no apt) goes on: the tests that need them print why they skip.
chromium:
	@test -x /usr/bin/chromium -a -x /usr/bin/strace -a -x /usr/bin/qemu-aarch64-static -a -d /usr/aarch64-linux-gnu/lib -a -x /usr/sbin/nginx -a -x /usr/bin/curl || \
	  (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium strace qemu-user-static libc6-arm64-cross nginx-light curl) || \
	  echo "make: could not install chromium, strace, qemu-user-static, libc6-arm64-cross, nginx-light and curl"

web: build/web/manifest.ts

build/web/manifest.ts: node_modules/.installed $(WEB_SOURCES) scripts/build.ts
	$(BUN) scripts/build.ts --web

dist/nearcast: node_modules/.installed $(WEB_SOURCES) $(APP_SOURCES) scripts/build.ts
	$(BUN) scripts/build.ts

dist/nearcast-%: node_modules/.installed $(WEB_SOURCES) $(APP_SOURCES) scripts/build.ts
	$(BUN) scripts/build.ts --target $*

typecheck: install web
	node_modules/.bin/tsc --noEmit -p .

# After changing src/db/schema.ts: write the SQL migration and embed it.
migrations: install
	node_modules/.bin/drizzle-kit generate
	$(BUN) scripts/embed-migrations.ts

bench: build
	$(BUN) bench/run.ts

clean:
	rm -rf build dist test-results
