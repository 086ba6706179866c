# Nearcast: `make run` to use it, `make test` to check it. Both install what is missing first.
BUN := node_modules/.bin/bun
WEB_SOURCES := $(shell find web src/schemas -type f 2>/dev/null)
APP_SOURCES := $(shell find src cli migrations -type f 2>/dev/null)

.PHONY: run test build web install chromium typecheck migrations bench clean

run: build
	./dist/nearcast serve --data-dir ./data

build: dist/nearcast

test: install chromium web
	./scripts/run-tests.sh

install: node_modules/.installed

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

# Browser tests drive Debian's chromium, the claim-durability smoke test traces the server with strace; installed once.
chromium:
	@test -x /usr/bin/chromium -a -x /usr/bin/strace || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium strace)

web: build/web/manifest.ts

build/web/manifest.ts: node_modules/.installed $(WEB_SOURCES) scripts/build.ts
	$(BUN) scripts/build.ts --web

dist/nearcast: node_modules/.installed $(WEB_SOURCES) $(APP_SOURCES) scripts/build.ts
	$(BUN) scripts/build.ts

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
