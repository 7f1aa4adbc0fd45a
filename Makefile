# Makefile: libmj.a, the tools, tests, install.
#   make                 library and tools
#   make check           unit, tool, cluster (t/cluster: Slurm, as root; GNU parallel) and
#                        oracle tests (and make layers)
#   make layers          lib/'s folders call one way: util < engine < compiler, derivative,
#                        render < plan, io (scripts/layers.sh)
#   make check SAN=1     the same under AddressSanitizer and UndefinedBehaviorSanitizer
#   make check-units, check-oracle-a, check-oracle-b
#                        the three parts of make check, each alone
#   make bench           compile-time benchmark
#   make soak            10^6 humanoid and 10^4 crowd100 steps: clean and reproducible
#   make memcheck        the tool tests with every tool under valgrind's memcheck
#   make fuzz            every fuzz harness for FUZZ_TIME seconds (clang, libFuzzer; build-fuzz/)
#   make install PREFIX=/usr/local

PREFIX  ?= /usr/local
CC      ?= gcc
CFLAGS  ?= -O3
CFLAGS  += -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror -Ilib
# messages are cut to their buffers by snprintf on purpose (-O3 inlines enough to warn)
CFLAGS  += -Wno-format-truncation
LDLIBS  = -lexpat -lz -lm -lccd -lqhull_r -lpng
ifdef SAN
CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined -g
LDFLAGS += -fsanitize=address,undefined
BUILD   = build-san
# the sanitized tools are several times slower: the with-contact trajectories' long-run
# statistics cover 2 s instead of 10 there (the 200-step comparisons are the same)
TRAJ_SECONDS ?= 2
else
BUILD   = build
TRAJ_SECONDS ?= 10
# the library's objects are fat (machine code and GIMPLE): the tools link them with link-time
# optimization (the stage functions inline across files; the same arithmetic, so the same
# numbers), the tests and the oracle's programs link the machine code as it is (quick links)
LTO     ?= -flto=auto -ffat-lto-objects
NOLTO   = -fno-lto
endif
# the link flags of the tests and of the oracle's programs
TLDFLAGS = $(LDFLAGS) $(NOLTO)

# lib/ by subsystem (lib/*/README: what each folder owns and may call; scripts/layers.sh
# checks it): util, engine, compiler, derivative, render, plan, io
LIBDIRS = util engine compiler derivative render plan io
LIBSRC  = $(wildcard $(LIBDIRS:%=lib/%/*.c))
LIBHDR  = lib/mj.h lib/mjxmacro.h $(wildcard $(LIBDIRS:%=lib/%/*.h))
LIBOBJ  = $(LIBSRC:lib/%.c=$(BUILD)/lib/%.o)
TOOLS   = $(patsubst cmd/%.c,%,$(filter-out cmd/tool.c,$(wildcard cmd/*.c)))
TOOLBIN = $(TOOLS:%=$(BUILD)/bin/%)
UNITSRC = $(wildcard $(LIBDIRS:%=t/unit/%/*.c))
UNITBIN = $(UNITSRC:t/unit/%.c=$(BUILD)/t/%)

# the fuzz harnesses (t/fuzz/): stl, obj and msh are mesh.c built once per format
FUZZ    = mjcf mjb mjt stl obj msh png hfield skin
FUZZBIN = $(FUZZ:%=$(BUILD)/t/fuzz-%)
fuzzsrc = $(if $(filter stl obj msh,$1),t/fuzz/mesh.c,t/fuzz/$1.c)
fuzzdef = -DFUZZ_ROOT='"$(CURDIR)"' $(if $(filter stl obj msh,$1),\
            -DMESH_FORMAT=$(if $(filter stl,$1),1,$(if $(filter obj,$1),2,3)))

all: $(BUILD)/libmj.a $(TOOLBIN)

$(BUILD)/lib/%.o: lib/%.c $(LIBHDR)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LTO) -c -o $@ $<

# the per-pixel loops of the rasterizer, which -O3 vectorizes (baseline SSE2): without
# trapping math the compiler may compute both sides of a select (the values are the same), and
# without jump threading it keeps a select's stores in one loop
PIXELOBJ = $(BUILD)/lib/render/render_shade.o $(BUILD)/lib/render/render_light.o \
           $(BUILD)/lib/render/render_raster.o
$(PIXELOBJ): CFLAGS += -O3 -fno-trapping-math -fno-math-errno -fno-thread-jumps

$(BUILD)/libmj.a: $(LIBOBJ)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/cmd/tool.o: cmd/tool.c cmd/tool.h $(LIBHDR)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LTO) -Icmd -c -o $@ $<

$(BUILD)/bin/%: cmd/%.c cmd/tool.h $(BUILD)/cmd/tool.o $(BUILD)/libmj.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LTO) -Icmd $(LDFLAGS) -o $@ $< $(BUILD)/cmd/tool.o $(BUILD)/libmj.a $(LDLIBS)

$(BUILD)/t/%: t/unit/%.c t/unit/*/*.h $(BUILD)/libmj.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(TLDFLAGS) -o $@ $< $(BUILD)/libmj.a $(LDLIBS) -lcriterion

# the allocation test counts malloc/calloc/realloc calls through linker wrappers
$(BUILD)/t/engine/noalloc: LDFLAGS += -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc

# a harness without libFuzzer: replays the inputs that once crashed it (t/fuzz/regress/)
$(BUILD)/t/fuzz-%: t/fuzz/replay.c t/fuzz/*.c t/fuzz/fuzz.h $(BUILD)/libmj.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(call fuzzdef,$*) $(TLDFLAGS) -o $@ t/fuzz/replay.c $(call fuzzsrc,$*) \
	  $(BUILD)/libmj.a $(LDLIBS)

# make check runs three parts, each of which can run alone (and .ci/run runs them side by
# side): check-units (layers, unit tests, fuzz regressions, tool and cluster tests),
# check-oracle-a (compilation and trajectories against MuJoCo) and check-oracle-b (the other
# oracle suites); testbins builds what they run.  Every step is announced with the time it
# starts (== HH:MM:SS step), so that a log shows where a run's time went
ORACLEENV = BIN=$(CURDIR)/$(BUILD)/bin CC="$(CC)" CFLAGS="$(CFLAGS) $(TLDFLAGS)" LDLIBS="$(LDLIBS)"
ORACLE_B  = constraint collision inverse solver mesh texture ray sensor deriv render history

check: check-units check-oracle-a check-oracle-b
	@echo "== $$(date +%T) check passed"

testbins: all $(UNITBIN) $(FUZZBIN)

check-units: testbins layers
	@for u in $(UNITBIN); do echo "== $$(date +%T) $$u"; $$u --jobs 1 || exit 1; done
	@for h in $(FUZZ); do echo "== $$(date +%T) fuzz regressions: $$h"; \
	  $(BUILD)/t/fuzz-$$h $$(ls -d t/fuzz/regress/$$h/* 2>/dev/null) >/dev/null || exit 1; done
	@for s in $(filter-out t/tools/lib.sh,$(wildcard t/tools/*.sh)); do echo "== $$(date +%T) $$s"; \
	  BIN=$(CURDIR)/$(BUILD)/bin sh $$s || exit 1; done
	@for s in $(filter-out t/cluster/ssh.sh,$(wildcard t/cluster/*.sh)); do echo "== $$(date +%T) $$s"; \
	  BIN=$(CURDIR)/$(BUILD)/bin sh $$s || exit 1; done

check-oracle-a: all
	@echo "== $$(date +%T) t/oracle/run.sh"
	@BIN=$(CURDIR)/$(BUILD)/bin sh t/oracle/run.sh
	@echo "== $$(date +%T) t/oracle/traj.sh"
	@$(ORACLEENV) TRAJ_SECONDS=$(TRAJ_SECONDS) sh t/oracle/traj.sh

check-oracle-b: all
	@for t in $(ORACLE_B); do echo "== $$(date +%T) t/oracle/$$t/run.sh"; \
	  $(ORACLEENV) sh t/oracle/$$t/run.sh || exit 1; done

# lib/'s folders call one way (scripts/layers.sh: includes and the objects' symbols)
layers: $(BUILD)/libmj.a
	@sh scripts/layers.sh lib $(BUILD)/lib

bench: all
	@BIN=$(CURDIR)/$(BUILD)/bin sh scripts/bench.sh

soak: all
	@BIN=$(CURDIR)/$(BUILD)/bin sh scripts/soak.sh

memcheck: all
	@BIN=$(CURDIR)/$(BUILD)/bin sh scripts/memcheck.sh

# libFuzzer builds: the library instrumented for coverage, sanitizers on, -O1 -g
FUZZCC    ?= clang
FUZZ_TIME ?= 60
FUZZFLAGS  = -O1 -g -fno-omit-frame-pointer -std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra \
             -Werror -Ilib -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZLIBOBJ = $(LIBSRC:lib/%.c=build-fuzz/lib/%.o)

build-fuzz/lib/%.o: lib/%.c $(LIBHDR)
	@mkdir -p $(dir $@)
	$(FUZZCC) $(FUZZFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

build-fuzz/libmj.a: $(FUZZLIBOBJ)
	rm -f $@
	ar rcs $@ $^

build-fuzz/bin/%: t/fuzz/*.c t/fuzz/fuzz.h build-fuzz/libmj.a
	@mkdir -p $(dir $@)
	$(FUZZCC) $(FUZZFLAGS) -fsanitize=fuzzer $(call fuzzdef,$*) -o $@ $(call fuzzsrc,$*) \
	  build-fuzz/libmj.a $(LDLIBS)

# seeds from models/ and ../shared/corpus (made by the gcc tools), then each harness in turn
fuzz: all $(FUZZ:%=build-fuzz/bin/%)
	BIN=$(CURDIR)/$(BUILD)/bin sh t/fuzz/seeds.sh build-fuzz/seeds
	FUZZ_TIME=$(FUZZ_TIME) sh t/fuzz/run.sh build-fuzz $(FUZZ)

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include/mj \
	  $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(PREFIX)/share/man/man5
	install -m 755 $(TOOLBIN) $(DESTDIR)$(PREFIX)/bin
	install -m 644 $(BUILD)/libmj.a $(DESTDIR)$(PREFIX)/lib
	install -m 644 lib/mj.h lib/mjxmacro.h $(DESTDIR)$(PREFIX)/include/mj
	install -m 644 man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 644 man/*.5 $(DESTDIR)$(PREFIX)/share/man/man5
	sed -e 's|@PREFIX@|$(PREFIX)|' lib/mj.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/mj.pc

clean:
	rm -rf build build-san build-fuzz

.PHONY: all check testbins check-units check-oracle-a check-oracle-b layers bench soak memcheck fuzz install clean
