# ucval: validate uclamp and schedutil from real traces.
# Plain GNU make + pkg-config. model/ builds without any library flags: if it
# ever needs one of the PKGS headers, the layering is wrong (STYLE.md §7).

VERSION  := 0.1.0
PKGS     := libtracecmd libtracefs libtraceevent sqlite3
# Debian 12 packages a fresh machine needs for build, tests and demo.
DEB_PKGS := build-essential pkg-config libtraceevent-dev libtracefs-dev \
	    libtracecmd-dev libsqlite3-dev libcmocka-dev trace-cmd sqlite3 \
	    clang libclang-rt-14-dev
# pkg-config name of each library a build needs (checked by `make deps`).
DEP_PCS  := $(PKGS) cmocka

CC       ?= cc
O        ?= build
SAN      := -fsanitize=address,undefined -fno-sanitize-recover=all
WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
BASE_CFLAGS := -std=gnu11 -O2 -g $(WARN) -MMD -MP -DUCVAL_VERSION='"$(VERSION)"'
CFLAGS   ?=
EXTRA_CFLAGS ?=
ALL_CFLAGS = $(BASE_CFLAGS) $(EXTRA_CFLAGS) $(CFLAGS)

PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CMOCKA_LIBS = $(shell pkg-config --libs cmocka 2>/dev/null)

MODEL_SRCS   := $(wildcard model/*.c)
# cmd_*.c are the subcommands: they go into the binary, not the library.
LIB_SRCS     := $(filter-out $(wildcard */cmd_*.c),$(wildcard analyze/*.c collect/*.c reports/*.c))
CMD_SRCS     := ucval.c $(wildcard analyze/cmd_*.c collect/cmd_*.c reports/cmd_*.c)
TEST_SRCS    := $(wildcard tests/test_*.c)

MODEL_OBJS   := $(MODEL_SRCS:%.c=$(O)/%.o)
LIB_OBJS     := $(LIB_SRCS:%.c=$(O)/%.o)
CMD_OBJS     := $(CMD_SRCS:%.c=$(O)/%.o)
TESTS        := $(TEST_SRCS:tests/%.c=$(O)/tests/%)

# Symbols model/ must never use: it computes, it does no I/O (STYLE.md §1).
MODEL_FORBIDDEN := printf fprintf puts fopen open write read malloc calloc realloc free exit abort

.PHONY: all deps check check-unit check-san check-layering demo clean help fuzz bench

all: ucval

help:
	@echo "make            build ./ucval"
	@echo "make deps       install the Debian packages ucval needs (root), or print the command"
	@echo "make check      all tests, then again under ASan+UBSan"
	@echo "make demo       build, run ucval on a bundled example, print the result"
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
	$(CC) $(ALL_CFLAGS) -o $@ $(CMD_OBJS) $(O)/libucval.a $(PKG_LIBS) -lm

$(O)/libucval.a: $(MODEL_OBJS) $(LIB_OBJS)
	rm -f $@
	ar rcs $@ $^

# model/: no library flags at all.
$(O)/model/%.o: model/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(PKG_CFLAGS) -I. -c -o $@ $<

$(O)/tests/%: tests/%.c $(O)/libucval.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(PKG_CFLAGS) -I. -o $@ $< $(O)/libucval.a $(PKG_LIBS) $(CMOCKA_LIBS) -lm

# --- tests ----------------------------------------------------------------
check: deps
	$(MAKE) check-layering
	$(MAKE) check-unit
	$(MAKE) check-san

check-layering: $(MODEL_OBJS)
	@bad=$$(nm -u $(MODEL_OBJS) | awk '{print $$2}' | sed 's/@.*//' | sort -u | \
		grep -xE '$(shell echo $(MODEL_FORBIDDEN) | tr ' ' '|')|tep_.*|sqlite3_.*|tracefs_.*|tracecmd_.*'); \
	if [ -n "$$bad" ]; then echo "layering: model/ uses forbidden symbols: $$bad" >&2; exit 1; fi; \
	echo "layering: model/ uses no I/O, allocation or library symbols"

check-unit: $(TESTS) $(O)/ucval
	@UCVAL=$(CURDIR)/$(O)/ucval sh tests/run-tests.sh $(TESTS)

check-san:
	$(MAKE) O=build-san EXTRA_CFLAGS="$(SAN) -O1" check-unit

# --- fuzz -----------------------------------------------------------------
# (fuzz targets: tests/fuzz/fuzz_*.c, built with clang -fsanitize=fuzzer)

# --- demo -----------------------------------------------------------------
demo: deps ucval
	@sh tests/demo.sh ./ucval

clean:
	rm -rf build build-san ucval

-include $(shell find $(O) build-san -name '*.d' 2>/dev/null)
