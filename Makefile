# SPDX-License-Identifier: MIT
# ucval: validate uclamp and schedutil from real traces.
# Plain GNU make + pkg-config. model/ builds without any library flags: if it
# ever needs one of the PKGS headers, the layering is wrong (STYLE.md §7).

VERSION  := 0.1.0
PKGS     := libtracecmd libtracefs libtraceevent sqlite3 libbpf
# Debian 12 packages a fresh machine needs for build, tests and demo.
DEB_PKGS := build-essential pkg-config libtraceevent-dev libtracefs-dev \
	    libtracecmd-dev libsqlite3-dev libcmocka-dev trace-cmd sqlite3 \
	    clang libclang-rt-14-dev libxml2-utils python3 valgrind protobuf-compiler time \
	    libbpf-dev bpftool

CC       ?= cc
# V=1 shows the full commands
Q        := $(if $(V),,@)
O        ?= build
SAN      := -fsanitize=address,undefined -fno-sanitize-recover=all
WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
BASE_CFLAGS := -std=gnu11 -O2 -g $(WARN) -MMD -MP -DUCVAL_VERSION='"$(VERSION)"'
# Link-time optimization: the replay calls across files at every event
# (measured: 8 % less time on a recording, 17 % on a synthetic trace).
# LTO= turns it off (the sanitizer builds do).
LTO      ?= -flto=auto
# an archive of LTO objects needs the LTO plugin: gcc-ar loads it
AR_CMD   := $(if $(LTO),$(shell command -v gcc-ar 2>/dev/null || echo ar),ar)
CFLAGS   ?=
EXTRA_CFLAGS ?=
ALL_CFLAGS = $(BASE_CFLAGS) $(LTO) $(EXTRA_CFLAGS) $(CFLAGS)

PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CMOCKA_LIBS = $(shell pkg-config --libs cmocka 2>/dev/null)

MODEL_SRCS   := $(wildcard model/*.c)
# cmd_*.c are the subcommands: they go into the binary, not the library.
# Every folder of the library (docs/ARCHITECTURE.md has the map).
LIB_DIRS     := lib analyze analyze/read analyze/read/dat analyze/replay analyze/checks \
		analyze/store collect collect/synth reports
ALL_SRCS     := $(foreach d,$(LIB_DIRS),$(wildcard $(d)/*.c))
CMD_SRCS     := ucval.c $(foreach d,$(LIB_DIRS),$(wildcard $(d)/cmd_*.c))
LIB_SRCS     := $(filter-out $(CMD_SRCS),$(ALL_SRCS))
TEST_SRCS    := $(wildcard tests/test_*.c)

MODEL_OBJS   := $(MODEL_SRCS:%.c=$(O)/%.o)
LIB_OBJS     := $(LIB_SRCS:%.c=$(O)/%.o)
CMD_OBJS     := $(CMD_SRCS:%.c=$(O)/%.o)
TESTS        := $(TEST_SRCS:tests/%.c=$(O)/tests/%)

# Symbols model/ must never use: it computes, it does no I/O (STYLE.md §1).
MODEL_FORBIDDEN := printf fprintf puts fopen open write read malloc calloc realloc free exit abort

.PHONY: all deps check check-unit check-san check-layering demo clean help fuzz bench \
	check-kernel golden golden-update check-browser check-valgrind check-deps deps-objs \
	check-pftrace pftrace-fixtures check-fleet-scale

all: ucval

help:
	@echo "make            build ./ucval"
	@echo "make deps       install the Debian packages ucval needs (root), or print the command"
	@echo "make check      all tests, again under ASan+UBSan, a short fuzz run, then memcheck (valgrind)"
	@echo "make check-deps the dependency rules of the tree, and SPDX lines (tests/tools/depcheck.py)"
	@echo "make check-fleet-scale  merge 200 shards into 10,000 traces, every fleet report checked (~1 min)"
	@echo "make fuzz       fuzz each reader and the replay for FUZZ_SECONDS (default 60); FUZZ_TIMEOUT (30) s on one input is a hang"
	@echo "make demo       build, run ucval on a bundled example, print the result"
	@echo "make bench      speed of ucval analyze against trace-cmd report and libtracecmd; Perfetto against trace.dat"
	@echo "make check-kernel  build a uclamp kernel, run it under QEMU, analyze; broken patches must FAIL"
	@echo "make golden-update  rewrite tests/golden/ from the current ucval report (review the diff)"
	@echo "make check-browser  render the demo HTML report with headless chromium to docs/report-html.png"
	@echo "make clean      remove build outputs"

# --- dependencies ---------------------------------------------------------
deps:
	@missing=""; \
	for p in $(DEB_PKGS); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then \
		echo "deps: all packages present"; \
	elif [ "$$(id -u)" = 0 ]; then \
		echo "deps: installing$$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null || exit 1; \
	else \
		echo "deps: missing$$missing; run as root:" >&2; \
		echo "  apt-get update && apt-get install -y$$missing" >&2; \
		exit 2; \
	fi

# --- build ----------------------------------------------------------------
ucval: $(O)/ucval
	cp $< $@

$(O)/ucval: $(CMD_OBJS) $(O)/libucval.a
	@echo "  LINK    $@"
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $(CMD_OBJS) $(O)/libucval.a $(PKG_LIBS) -lm

$(O)/libucval.a: $(MODEL_OBJS) $(LIB_OBJS)
	@echo "  AR      $@"
	$(Q)rm -f $@
	$(Q)$(AR_CMD) rcs $@ $^

# model/: no library flags at all.
$(O)/model/%.o: model/%.c
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(PKG_CFLAGS) -I. -c -o $@ $<

$(O)/tests/%: tests/%.c $(O)/libucval.a
	@mkdir -p $(dir $@)
	@echo "  TEST    $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(PKG_CFLAGS) -I. -o $@ $< $(O)/libucval.a $(PKG_LIBS) $(CMOCKA_LIBS) -lm

# --- tests ----------------------------------------------------------------
check: deps
	$(MAKE) check-layering
	$(MAKE) check-deps
	$(MAKE) check-pftrace
	$(MAKE) check-unit
	$(MAKE) check-san
	$(MAKE) check-tsan
	$(MAKE) check-fuzz
	$(MAKE) check-valgrind

# Objects of model/ without LTO: nm lists no calls of an LTO object.
LAYER_OBJS := $(MODEL_SRCS:%.c=$(O)/layering/%.o)
$(O)/layering/model/%.o: model/%.c
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(BASE_CFLAGS) -c -o $@ $<

check-layering: $(LAYER_OBJS)
	@bad=$$(nm -u $(LAYER_OBJS) | awk '{print $$2}' | sed 's/@.*//' | sort -u | \
		grep -xE '$(shell echo $(MODEL_FORBIDDEN) | tr ' ' '|')|tep_.*|sqlite3_.*|tracefs_.*|tracecmd_.*'); \
	if [ -n "$$bad" ]; then echo "layering: model/ uses forbidden symbols: $$bad" >&2; exit 1; fi; \
	echo "layering: model/ uses no I/O, allocation or library symbols"

# The dependency rules of the tree (tests/tools/depcheck.py): folders include
# only lower layers, and no module reaches itself through includes or calls.
# The call graph comes from objects without LTO, where nm sees every call.
DEPS_O    := $(O)/deps
DEPS_OBJS := $(MODEL_SRCS:%.c=$(DEPS_O)/%.o) $(LIB_SRCS:%.c=$(DEPS_O)/%.o)
$(DEPS_O)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) -std=gnu11 -O0 -MMD -MP -DUCVAL_VERSION='"$(VERSION)"' $(PKG_CFLAGS) -I. -c -o $@ $<

deps-objs: $(DEPS_OBJS)

check-deps: $(DEPS_OBJS)
	@python3 tests/tools/depcheck.py --self-test
	@rc=0; python3 tests/tools/depcheck.py --spdx || rc=1; \
		python3 tests/tools/depcheck.py --objdir $(DEPS_O) || rc=1; exit $$rc

# Perfetto fixtures: traces/perfetto/NAME.pftrace is NAME.textproto encoded
# by protoc against proto/perfetto.proto; check-pftrace encodes them again
# into $(O)/perfetto/ and compares, pftrace-fixtures rewrites the tree's.
PF_TEXTS   := $(wildcard traces/perfetto/*.textproto)
PF_ENCODE  = protoc --proto_path=. --encode=ucval.perfetto.Trace proto/perfetto.proto
check-pftrace:
	@if ! command -v protoc >/dev/null; then \
		echo "check-pftrace: skipped, no protoc (make deps installs protobuf-compiler)"; \
		exit 0; \
	fi; \
	mkdir -p $(O)/perfetto; rc=0; \
	for f in $(PF_TEXTS); do \
		b=$$(basename $$f .textproto); \
		$(PF_ENCODE) < $$f > $(O)/perfetto/$$b.pftrace || { rc=1; continue; }; \
		cmp -s $(O)/perfetto/$$b.pftrace traces/perfetto/$$b.pftrace || \
			{ echo "check-pftrace: traces/perfetto/$$b.pftrace is not $$f encoded" >&2; rc=1; }; \
	done; \
	[ $$rc = 0 ] && echo "check-pftrace: $(words $(PF_TEXTS)) fixtures match their text"; exit $$rc

pftrace-fixtures:
	@for f in $(PF_TEXTS); do \
		$(PF_ENCODE) < $$f > traces/perfetto/$$(basename $$f .textproto).pftrace || exit 1; \
	done

check-unit: $(TESTS) $(O)/ucval
	@UCVAL=$(CURDIR)/$(O)/ucval sh tests/run-tests.sh $(TESTS)

check-san:
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
		$(MAKE) O=build-san LTO= EXTRA_CFLAGS="$(SAN) -O1" check-unit

# The threads of `ucval analyze` (sha256, streaming, writer, -j) under
# ThreadSanitizer: tests/tsan.sh.
check-tsan:
	$(MAKE) O=build-tsan LTO= EXTRA_CFLAGS="-fsanitize=thread -O1" build-tsan/ucval
	@sh tests/tsan.sh $(CURDIR)/build-tsan/ucval

# Golden report files (tests/golden/): rewritten from the current `ucval report`;
# review them with `git diff tests/golden` before committing.
golden golden-update: $(O)/tests/test_rep_report $(O)/ucval
	@UCVAL=$(CURDIR)/$(O)/ucval UCVAL_GOLDEN_UPDATE=1 $(O)/tests/test_rep_report

# The BPF probes of collect (collect/probes.c): compiled for the BPF target
# (CO-RE: no vmlinux.h, the kernel types they read are in the source), then
# embedded in a skeleton header that probes.c includes.
BPF_CLANG ?= clang
BPFTOOL   ?= $(shell command -v bpftool 2>/dev/null || echo /usr/sbin/bpftool)
BPF_ARCH  := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')
BPF_SKEL  = $(O)/collect/bpf/ucprobes.skel.h
$(O)/collect/bpf/ucprobes.bpf.o: collect/bpf/ucprobes.bpf.c collect/probeev.h
	@mkdir -p $(dir $@)
	@echo "  BPF     $@"
	$(Q)$(BPF_CLANG) -g -O2 -target bpf -D__TARGET_ARCH_$(BPF_ARCH) -Wall -Werror -I. \
		-I/usr/include/$(shell $(CC) -dumpmachine) -c -o $@ $<
$(O)/collect/bpf/ucprobes.skel.h: $(O)/collect/bpf/ucprobes.bpf.o
	@echo "  SKEL    $@"
	$(Q)$(BPFTOOL) gen skeleton $< name ucprobes > $@.tmp && mv $@.tmp $@
$(O)/collect/probes.o $(DEPS_O)/collect/probes.o: $(BPF_SKEL)
$(O)/collect/probes.o: ALL_CFLAGS += -I$(O)/collect/bpf
$(DEPS_O)/collect/probes.o: PKG_CFLAGS += -I$(O)/collect/bpf

# --- fuzz -----------------------------------------------------------------
# libFuzzer targets tests/fuzz/fuzz_*.c over the readers, built with clang in
# build-fuzz/. Seeds: tests/fuzz/seeds-*/ plus, at run time, the public traces
# of $(UCVAL_SHARED) and a synthetic trace.dat (never copied into the tree).
# Crashes land in build-fuzz/artifacts/; each one becomes a test row.
FUZZ_CC       ?= clang
FUZZ_SECONDS  ?= 60
FUZZ_CHECK_SECONDS ?= 10
# an input slower than this is a hang found (a timeout artifact), not a long run
FUZZ_TIMEOUT  ?= 30
FUZZ_O        := build-fuzz
FUZZ_SAN      := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_CFLAGS   := -std=gnu11 -g -O1 -MMD -MP $(WARN) $(FUZZ_SAN)
UCVAL_SHARED  ?= $(abspath ../shared)
# The readers and parsers (traces, markers, platform files, interval chunks);
# the replay target below adds the checks. The db is not fuzzed. model/ links
# in because lib/ may call it (lib/modelopt.c: model_kver_parse()).
FUZZ_LIB_SRCS := $(MODEL_SRCS) $(wildcard lib/*.c analyze/read/*.c analyze/read/dat/*.c) \
		 analyze/store/chunk.c
FUZZ_LIB_OBJS := $(FUZZ_LIB_SRCS:%.c=$(FUZZ_O)/obj/%.o)
# The replay target runs the model and every check as well: the library
# sources of analyze/ and model/, and the explanation formatter.
FUZZ_REPLAY_SRCS := $(MODEL_SRCS) $(filter lib/% analyze/%,$(LIB_SRCS))
FUZZ_REPLAY_OBJS := $(FUZZ_REPLAY_SRCS:%.c=$(FUZZ_O)/obj/%.o)
FUZZ_TARGETS  := text marker tracedat chunk platform replay pftrace
FUZZ_BINS     := $(FUZZ_TARGETS:%=$(FUZZ_O)/fuzz_%)
# Longest input per target: text seeds are cut to the text length, trace.dat
# seeds fit.
FUZZ_MAX_LEN_text     := 16384
FUZZ_MAX_LEN_marker   := 4096
FUZZ_MAX_LEN_tracedat := 65536
FUZZ_MAX_LEN_chunk    := 4096
FUZZ_MAX_LEN_platform := 16384
FUZZ_MAX_LEN_replay   := 65536
FUZZ_MAX_LEN_pftrace  := 65536

.PHONY: fuzz-build fuzz-seeds check-fuzz
.SECONDARY: $(FUZZ_LIB_OBJS) $(FUZZ_REPLAY_OBJS)

$(FUZZ_O)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  FUZZCC  $@"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(PKG_CFLAGS) -I. -c -o $@ $<

$(FUZZ_O)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_LIB_OBJS)
	@mkdir -p $(dir $@)
	@echo "  FUZZLD  $@"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(PKG_CFLAGS) -I. -o $@ $< \
		$(FUZZ_LIB_OBJS) $(PKG_LIBS)

$(FUZZ_O)/fuzz_replay: tests/fuzz/fuzz_replay.c $(FUZZ_REPLAY_OBJS)
	@mkdir -p $(dir $@)
	@echo "  FUZZLD  $@"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $(PKG_CFLAGS) -I. -o $@ $< \
		$(FUZZ_REPLAY_OBJS) $(PKG_LIBS) -lpthread

$(FUZZ_O)/mkseed_dat: tests/fuzz/mkseed_dat.c tests/an_datwriter.h
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) -std=gnu11 -O1 $(WARN) -I. -o $@ $<

fuzz-build: $(FUZZ_BINS)

# Seeds are rebuilt each run from the tree and the shared traces.
fuzz-seeds: $(FUZZ_O)/mkseed_dat
	@rm -rf $(FUZZ_O)/seeds && mkdir -p $(FUZZ_TARGETS:%=$(FUZZ_O)/seeds/%) \
		$(FUZZ_TARGETS:%=$(FUZZ_O)/corpus/%) $(FUZZ_O)/artifacts
	@cp tests/fuzz/seeds-marker/* $(FUZZ_O)/seeds/marker/
	@cp tests/fuzz/seeds-text/* $(FUZZ_O)/seeds/text/
	@cp tests/fuzz/seeds-chunk/* $(FUZZ_O)/seeds/chunk/
	@cp tests/fuzz/seeds-platform/* $(FUZZ_O)/seeds/platform/
	@cp tests/fuzz/seeds-replay/* $(FUZZ_O)/seeds/replay/
	@for f in tests/fuzz/seeds-text/* traces/*.txt $(UCVAL_SHARED)/traces/*.txt; do \
		case "$$f" in */LICENSE*) continue;; esac; \
		[ -f "$$f" ] && { printf '\000'; head -c $$(($(FUZZ_MAX_LEN_text) - 1)) "$$f"; } \
			> $(FUZZ_O)/seeds/replay/$$(basename "$$f"); \
	done; true
	@for f in $(UCVAL_SHARED)/traces/*.platform.json; do \
		[ -f "$$f" ] && head -c $(FUZZ_MAX_LEN_platform) "$$f" > $(FUZZ_O)/seeds/platform/$$(basename "$$f"); \
	done; true
	@for f in $(UCVAL_SHARED)/traces/*.txt $(UCVAL_SHARED)/traces/*.html; do \
		[ -f "$$f" ] && head -c $(FUZZ_MAX_LEN_text) "$$f" > $(FUZZ_O)/seeds/text/$$(basename "$$f"); \
	done; true
	@$(FUZZ_O)/mkseed_dat $(FUZZ_O)/seeds/tracedat
	@$(FUZZ_O)/mkseed_dat $(FUZZ_O)/seeds/replay --replay
	@cp tests/data/*.dat $(FUZZ_O)/seeds/tracedat/
	@cp traces/perfetto/*.pftrace $(FUZZ_O)/seeds/pftrace/
	@for f in tests/data/*.dat; do \
		{ printf '\000'; cat "$$f"; } > $(FUZZ_O)/seeds/replay/$$(basename "$$f"); done
	@if command -v trace-cmd >/dev/null 2>&1; then \
		for c in none zstd; do for s in "" -cpustat -pages -read-before -long4 -clock-empty -date; do \
			trace-cmd convert --file-version 7 --compression $$c \
				-i $(FUZZ_O)/seeds/tracedat/synthetic-v6$$s.dat \
				-o $(FUZZ_O)/seeds/tracedat/synthetic-v7-$$c$$s.dat >/dev/null 2>&1 || true; \
		done; done; \
		if [ -f $(UCVAL_SHARED)/traces/juno-r0-schedutil-sched_load.dat ]; then \
			trace-cmd report -i $(UCVAL_SHARED)/traces/juno-r0-schedutil-sched_load.dat \
				2>/dev/null | head -c $(FUZZ_MAX_LEN_text) > $(FUZZ_O)/seeds/text/juno-report.txt; \
		fi; \
	else echo "fuzz: trace-cmd absent, no v7 or report seeds"; fi

# run-fuzz SECONDS: each target for SECONDS, failing on the first crash.
define run-fuzz
	@for t in $(FUZZ_TARGETS); do \
		echo "fuzz_$$t: $(1) s"; \
		LSAN_OPTIONS=suppressions=$(CURDIR)/tests/fuzz/lsan.supp \
		$(FUZZ_O)/fuzz_$$t -max_total_time=$(1) -timeout=$(FUZZ_TIMEOUT) -print_final_stats=1 \
			-max_len=$$(case $$t in text) echo $(FUZZ_MAX_LEN_text);; \
				marker) echo $(FUZZ_MAX_LEN_marker);; chunk) echo $(FUZZ_MAX_LEN_chunk);; \
				platform) echo $(FUZZ_MAX_LEN_platform);; \
				replay) echo $(FUZZ_MAX_LEN_replay);; \
				pftrace) echo $(FUZZ_MAX_LEN_pftrace);; \
				*) echo $(FUZZ_MAX_LEN_tracedat);; esac) \
			-artifact_prefix=$(FUZZ_O)/artifacts/$$t- \
			$(FUZZ_O)/corpus/$$t $(FUZZ_O)/seeds/$$t \
			> $(FUZZ_O)/fuzz_$$t.log 2>&1 || { tail -40 $(FUZZ_O)/fuzz_$$t.log; exit 1; }; \
		grep -E '^stat::number_of_executed_units|^Done' $(FUZZ_O)/fuzz_$$t.log; \
	done
endef

fuzz: fuzz-build fuzz-seeds
	$(call run-fuzz,$(FUZZ_SECONDS))

check-fuzz: fuzz-build fuzz-seeds
	$(call run-fuzz,$(FUZZ_CHECK_SECONDS))

# Reads of memory nobody wrote (ASan and UBSan do not see them) under
# valgrind's memcheck (tests/valgrind.sh): the model's tests; the fuzz
# targets, built plain (tests/fuzz/main_plain.c), over their seeds, the
# corpus the fuzzers kept and the regression inputs; ucval on every input
# kind and report format.
MODEL_TESTS := $(filter $(O)/tests/test_model_%,$(TESTS))
PLAIN_O     := $(O)/fuzz-plain
PLAIN_BINS   = $(FUZZ_TARGETS:%=$(PLAIN_O)/fuzz_%)
$(PLAIN_O)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/main_plain.c $(O)/libucval.a
	@mkdir -p $(dir $@)
	@echo "  TEST    $@"
	$(Q)$(CC) $(filter-out -MMD -MP,$(ALL_CFLAGS)) $(PKG_CFLAGS) -I. -o $@ $< \
		tests/fuzz/main_plain.c $(O)/libucval.a $(PKG_LIBS) -lm -lpthread

check-valgrind: $(O)/ucval $(MODEL_TESTS) $(PLAIN_BINS) fuzz-seeds
	@sh tests/valgrind.sh $(CURDIR)/$(O)/ucval $(CURDIR)/$(PLAIN_O) $(CURDIR)/$(FUZZ_O) \
		$(MODEL_TESTS)

-include $(shell find $(FUZZ_O) -name '*.d' 2>/dev/null)

# --- bench ----------------------------------------------------------------
# Prints speed figures (never asserts a time): see tests/bench/run.sh.
BENCH_O := $(O)/bench

$(BENCH_O)/tcmd_iter: tests/bench/tcmd_iter.c
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(PKG_CFLAGS) -o $@ $< $(PKG_LIBS)

# KERNEL_TRACE: a kernel loop's trace to bench (default: make check-kernel's)
KERNEL_TRACE ?= $(CURDIR)/$(O)/kernel/good/trace.dat
bench: deps ucval $(BENCH_O)/tcmd_iter
	@UCVAL_SHARED=$(UCVAL_SHARED) sh tests/bench/run.sh $(CURDIR)/ucval \
		$(CURDIR)/$(BENCH_O)/tcmd_iter $(CURDIR)/$(BENCH_O) $(KERNEL_TRACE)

# --- fleets at scale --------------------------------------------------------
# Not part of check (about a minute, most of it analyzing the shards); .ci/run
# runs it. FLEET_SHARDS= and FLEET_PER= make it smaller or larger.
FLEET_SHARDS ?= 200
FLEET_PER    ?= 50
check-fleet-scale: deps ucval
	@sh tests/fleet-scale.sh $(CURDIR)/$(O)/ucval $(CURDIR)/$(O)/fleet-scale \
		$(FLEET_SHARDS) $(FLEET_PER)

# --- real kernel ----------------------------------------------------------
# tests/kernel/loop.sh: kernel builds cached in KCACHE (default /work/kcache);
# KSRC=, PATCHES=, BROKEN= as in docs/kernel-loop.md.
check-kernel: deps ucval
	@UCVAL=$(CURDIR)/$(O)/ucval OUT=$(CURDIR)/$(O)/kernel bash tests/kernel/loop.sh all

# --- demo -----------------------------------------------------------------
demo: deps ucval
	@sh tests/demo.sh ./ucval demo.db

# Optional, not part of check: the HTML report of the demo database as a
# browser shows it, for the demo's trace with frequency plots (the full
# demo.html has it below the first screen). Installs chromium when missing (root).
BROWSER_PNG := docs/report-html.png
check-browser: ucval
	@command -v chromium >/dev/null 2>&1 || { \
		if [ "$$(id -u)" = 0 ]; then apt-get update -qq && \
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
		else echo "check-browser: chromium missing; as root: apt-get install -y chromium" >&2; \
			exit 2; fi; }
	@sh tests/demo.sh ./ucval $(O)/browser/demo.db > /dev/null
	@./ucval report $(O)/browser/demo.db --trace traces/freq_below_min_clamp-fail.txt \
		--format html -o $(O)/browser/freq.html
	@mkdir -p docs
	@chromium --headless --disable-gpu --no-sandbox --hide-scrollbars \
		--screenshot=$(CURDIR)/$(BROWSER_PNG) --window-size=1400,2000 \
		file://$(CURDIR)/$(O)/browser/freq.html 2>/dev/null
	@test -s $(BROWSER_PNG) && echo "check-browser: wrote $(BROWSER_PNG)"

clean:
	rm -rf build build-san build-tsan $(FUZZ_O) ucval

-include $(shell find $(O) build-san -name '*.d' 2>/dev/null)
