# gozie — run `make help` for the targets.

GO          ?= go
BIN         := bin/gozie
VERSION     ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT      ?= $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)
LDFLAGS     := -X github.com/gozie/gozie/buildinfo.Version=$(VERSION) -X github.com/gozie/gozie/buildinfo.Revision=$(COMMIT)
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
DATA_DIR    ?= ./gozie-data
# Test packages run with the race detector; the KDC and PostgreSQL they need
# are started by scripts/test-services.sh.
TEST_FLAGS  ?= -race -count=1 -timeout 20m

.DEFAULT_GOAL := help

.PHONY: help
help: ## List the targets
	@grep -E '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN{FS=":.*## "}{printf "  %-10s %s\n", $$1, $$2}'

.PHONY: build
build: ## Build the gozie binary into bin/
	CGO_ENABLED=0 $(GO) build -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/gozie

.PHONY: run
run: build ## Build and start the server with its embedded defaults and a local mini-cluster (ARGS=-ha, -kerberos, ...)
	$(BIN) server -local -data-dir $(DATA_DIR) $(ARGS)

.PHONY: examples
examples: build ## Install the example apps into the cluster of a running `make run`, and print the commands that run them
	$(BIN) examples install -data-dir $(DATA_DIR) $(ARGS)

.PHONY: test
test: ## Run every test on SQLite and a throwaway PostgreSQL (installs what is missing)
	@set -e; env_file=$$(mktemp); export GOZIE_TEST_STATE=$$(mktemp -d); \
	trap 'scripts/test-services.sh stop; rm -rf $$env_file $$GOZIE_TEST_STATE' EXIT; \
	scripts/test-services.sh start > $$env_file; . $$env_file; \
	echo "test services: PostgreSQL at $$GOZIE_TEST_POSTGRES"; \
	CI=$${CI:-} $(GO) run ./internal/testreport $(TEST_FLAGS) ./...

.PHONY: lint
lint: ## gofmt, go vet and staticcheck
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) run $(STATICCHECK) ./...

.PHONY: bench
bench: ## Run the benchmarks on a durable PostgreSQL (BENCH_NONDURABLE=1 adds a non-durable pass); see BENCHMARKS.md
	@set -e; env_file=$$(mktemp); export GOZIE_TEST_STATE=$$(mktemp -d) GOZIE_TEST_PG_DURABLE=1; \
	trap 'scripts/test-services.sh stop; rm -rf $$env_file $$GOZIE_TEST_STATE' EXIT; \
	scripts/test-services.sh start > $$env_file; . $$env_file; \
	scripts/bench.sh

.PHONY: soak
soak: ## Run `gozie server -local` under 50 workflows/s for an hour (SOAK_DURATION=5m, SOAK_INTERVAL, SOAK_RATE) and fail if memory, goroutines or open files keep growing
	scripts/soak.sh

.PHONY: proto
proto: ## Regenerate the committed protobuf Go code (needs protoc)
	hadoop/hadooppb/generate.sh

.PHONY: clean
clean: ## Remove build output
	rm -rf bin
