# hearth — the two commands a newcomer needs are `make run` and `make test`.
GO       ?= go
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
DB       ?= hearth.db
PERSONA  ?= persona.example.yaml
FUZZTIME ?= 10s
BENCHTIME ?= 1s

.PHONY: build run test lint bench fuzz clean

build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags "-s -w -X main.version=$(VERSION)" -o bin/hearth ./cmd/hearth

# The daemon on the console with the example persona; offline brain unless
# OPENAI_BASE_URL or OPENAI_API_KEY is set.
run: build
	./bin/hearth run --db $(DB) --persona $(PERSONA) --console

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet -race ./...  # -race: vet shares the race build with make test

test: lint
	$(GO) test -race -count=1 ./...

bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) ./...

# Each fuzz target for a short, fixed time (FUZZTIME).
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
		for t in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
			echo "== $$pkg $$t"; \
			$(GO) test -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME) $$pkg; \
		done; \
	done

clean:
	rm -rf bin
