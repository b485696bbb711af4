# The README's two commands. `make test` installs what is missing, configures,
# builds and runs every test; `make run` opens the editor on the demo project.
BUILD ?= build
MESON_TEST_ARGS ?= --print-errorlogs
# Its own X server, claimed without the race of `xvfb-run -a` (build-aux/xvfb.sh).
XVFB = bash build-aux/xvfb.sh

.PHONY: all deps configure build test run bench clean

all: build

deps:
	@if [ "$$(id -u)" -eq 0 ]; then bash build-aux/install-deps.sh; else sudo bash build-aux/install-deps.sh; fi

$(BUILD)/build.ninja:
	meson setup $(BUILD)

configure: deps $(BUILD)/build.ninja

build: configure
	meson compile -C $(BUILD)

test: build
	$(XVFB) meson test -C $(BUILD) $(MESON_TEST_ARGS)

run: build
	bash build-aux/run-demo.sh $(BUILD)

bench: build
	meson test -C $(BUILD) --benchmark --verbose

clean:
	rm -rf $(BUILD)

# CI's extra passes (see .ci/run), each in its own build directory.
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
FUZZ_SECONDS ?= 60
.PHONY: asan fuzz ci

# Every non-GUI test under AddressSanitizer + UBSan + LeakSanitizer.
asan: deps
	bash build-aux/ci-sanitize.sh $(ASAN_BUILD)

# The editor's tests (GTK under Xvfb) under AddressSanitizer + UBSan +
# LeakSanitizer, in a build directory of their own.
ASAN_GUI_BUILD ?= build-asan-gui
.PHONY: asan-gui
asan-gui: deps
	bash build-aux/ci-sanitize-gui.sh $(ASAN_GUI_BUILD)

# Each libFuzzer target (clang) for a share of FUZZ_SECONDS, from a temporary
# copy of its seed corpus.
fuzz: deps
	bash build-aux/ci-fuzz.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

# The whole CI: make test, then the two passes above; one count line at the end.
ci:
	bash .ci/run
