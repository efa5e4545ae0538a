# repview — build, test, bench.  `make` builds ./repview (CUDA when nvcc is found,
# a CPU-only stub for gpu/ otherwise; NO_CUDA=1 forces the stub).  `make fuzz` runs
# the libFuzzer harnesses of tests/fuzz/ (clang) for FUZZ_SECONDS each.
CC      ?= cc
BUILD   ?= build
PREFIX  ?= /usr/local
OPT     ?= -O2
CFLAGS  ?= $(OPT) -g
WARN    := -Wall -Wextra -Wshadow -Wno-unused-parameter
PKGS    := htslib ncursesw libxxhash
ALL_CFLAGS := -std=c11 -D_GNU_SOURCE $(WARN) -Iinclude -pthread $(CFLAGS) \
              $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
LIBS    := $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -lhts -lncursesw -lxxhash) \
           -ldivsufsort -ldivsufsort64 -lpthread -lm

ifeq ($(SAN),fuzz) # the library under libFuzzer (tests/fuzz/run)
ALL_CFLAGS += -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDSAN := -fsanitize=address,undefined
endif
ifeq ($(SAN),1)
ALL_CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
LDSAN := -fsanitize=address,undefined
endif

# ---- CUDA detection ------------------------------------------------------------
CUDA_HOME ?= /usr/local/cuda
ifneq ($(NO_CUDA),1)
NVCC ?= $(shell command -v nvcc 2>/dev/null || { test -x $(CUDA_HOME)/bin/nvcc && echo $(CUDA_HOME)/bin/nvcc; })
endif
CU_SRC  := $(wildcard gpu/*.cu)
ifneq ($(and $(NVCC),$(CU_SRC)),)
HAVE_CUDA := 1
GPU_OBJ := $(patsubst gpu/%.cu,$(BUILD)/gpu/%.o,$(CU_SRC)) \
           $(patsubst gpu/%.c,$(BUILD)/gpu/%.o,$(filter-out gpu/gpu_stub.c,$(wildcard gpu/*.c)))
NVFLAGS ?= -O3 -std=c++17 -Iinclude -gencode arch=compute_90,code=sm_90 \
           -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=compute_90 \
           -Xcompiler -fPIC,-Wall
CUDA_LIBS := -L$(CUDA_HOME)/lib64 -lcudart_static -ldl -lrt -lstdc++
else
HAVE_CUDA := 0
GPU_OBJ := $(BUILD)/gpu/gpu_stub.o
CUDA_LIBS :=
endif

# ---- MPI detection: mpicc found -> cli_mpi*.c with MPI; NO_MPI=1 forces off
ifneq ($(NO_MPI),1)
MPICC ?= $(shell command -v mpicc 2>/dev/null)
endif
ifneq ($(MPICC),)
MPI_CFLAGS := $(shell $(MPICC) --showme:compile 2>/dev/null)
MPI_LIBS := $(shell $(MPICC) --showme:link 2>/dev/null)
HAVE_MPI := $(shell echo '\#include <mpi.h>' | $(CC) $(MPI_CFLAGS) -E -x c - >/dev/null 2>&1 && echo 1 || echo 0)
endif
ifneq ($(HAVE_MPI),1)
HAVE_MPI := 0
MPI_CFLAGS :=
MPI_LIBS :=
endif

ENGINE_OBJ := $(patsubst engine/%.c,$(BUILD)/engine/%.o,$(wildcard engine/*/*.c))
UI_OBJ     := $(patsubst %.c,$(BUILD)/%.o,$(wildcard ui/*.c ui/cli/*.c ui/explorer/*.c))
MPI_OBJ    := $(patsubst %.c,$(BUILD)/%.o,$(wildcard ui/cli/cli_mpi*.c)) # with MPI's flags
LIB        := $(BUILD)/librepview.a
TEST_SRC   := $(wildcard tests/t_*.c)
TEST_BIN   := $(patsubst tests/%.c,$(BUILD)/tests/%,$(TEST_SRC))
TOOL_BIN   := $(BUILD)/gen_chrom $(BUILD)/rvtime $(BUILD)/sim_reads $(BUILD)/sa_bench

.PHONY: all deps run test check asan bench install clean nocuda fuzz
all: repview $(TEST_BIN) $(TOOL_BIN)

# ---- the configuration: a change of compiler, flags, CUDA, MPI or sanitizers rebuilds
# what it affects.  Each stamp holds one part of the configuration and is rewritten
# only when that part changes, so its date tells make when to rebuild.
CONFIG_CC := $(CC) $(ALL_CFLAGS) -DRV_HAVE_CUDA=$(HAVE_CUDA) -DRV_HAVE_MPI=$(HAVE_MPI) $(MPI_CFLAGS)
CONFIG_NV := $(NVCC) $(NVFLAGS)
CONFIG_LD := $(CC) $(LDSAN) $(LDFLAGS) $(CUDA_LIBS) $(LIBS) $(MPI_LIBS) gpu:$(GPU_OBJ)
STAMP_CC := $(BUILD)/config-cc.stamp
STAMP_NV := $(BUILD)/config-nvcc.stamp
STAMP_LD := $(BUILD)/config-ld.stamp
# A dry run (make -n, make -q) writes no stamp: a stamp that would change is phony
# there, so that the dry run lists what the new configuration rebuilds.
DRY_RUN := $(if $(findstring n,$(firstword -$(MAKEFLAGS)))$(findstring q,$(firstword -$(MAKEFLAGS))),1)
stamp_old = $(shell cat $(1) 2>/dev/null)
stamp_write = $(shell mkdir -p $(BUILD) && printf '%s\n' '$(subst ','"'"',$(2))' >$(1).new && \
                mv -f $(1).new $(1))
stamp_differs = $(or $(subst $(strip $(2)),,$(strip $(call stamp_old,$(1)))),$(subst $(strip $(call stamp_old,$(1))),,$(strip $(2))),$(if $(wildcard $(1)),,missing))
stamp = $(if $(call stamp_differs,$(1),$(2)),\
          $(if $(DRY_RUN),$(eval .PHONY: $(1)),$(call stamp_write,$(1),$(2))))
ifeq ($(filter clean deps,$(MAKECMDGOALS)),)
$(call stamp,$(STAMP_CC),$(CONFIG_CC))
$(call stamp,$(STAMP_NV),$(CONFIG_NV))
$(call stamp,$(STAMP_LD),$(CONFIG_LD))
endif
DEPFLAGS = -MMD -MP

repview: $(BUILD)/repview
	@if [ "$(BUILD)" = build ]; then cp $< $@; fi

$(BUILD)/repview: $(UI_OBJ) $(LIB) $(STAMP_LD)
	$(CC) $(LDSAN) $(LDFLAGS) -o $@ $(UI_OBJ) $(LIB) $(CUDA_LIBS) $(LIBS) $(MPI_LIBS)

$(MPI_OBJ): $(BUILD)/ui/cli/%.o: ui/cli/%.c $(STAMP_CC)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) $(MPI_CFLAGS) -DRV_HAVE_MPI=$(HAVE_MPI) -c -o $@ $<

$(LIB): $(ENGINE_OBJ) $(GPU_OBJ) $(STAMP_LD)
	@rm -f $@
	ar rcs $@ $(ENGINE_OBJ) $(GPU_OBJ)

# engine/ sources include their own room's headers by name and other rooms' as
# "room/x.h" (-Iengine)
$(BUILD)/engine/%.o: engine/%.c $(STAMP_CC)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -Iengine -DRV_HAVE_CUDA=$(HAVE_CUDA) -DRV_HAVE_MPI=$(HAVE_MPI) -c -o $@ $<

$(BUILD)/%.o: %.c $(STAMP_CC)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -DRV_HAVE_CUDA=$(HAVE_CUDA) -DRV_HAVE_MPI=$(HAVE_MPI) -c -o $@ $<

$(BUILD)/gpu/%.o: gpu/%.cu $(wildcard include/repview/*.h gpu/*.cuh gpu/*.h) \
                  engine/search/fm_core.h $(STAMP_NV)
	@mkdir -p $(dir $@)
	$(NVCC) $(NVFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/%.c $(LIB) $(STAMP_CC)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -Iengine -o $@ $< $(LIB) $(LDSAN) $(CUDA_LIBS) $(LIBS)

$(BUILD)/gen_chrom: samples/gen_chrom.c $(STAMP_CC)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LDSAN) -lm

$(BUILD)/sim_reads: tests/bench/sim_reads.c $(STAMP_CC)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LDSAN)

# the suffix-array bench: the parallel construction against libdivsufsort
$(BUILD)/sa_bench: tests/bench/sa_bench.c $(LIB) $(STAMP_CC)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(DEPFLAGS) -Iengine -o $@ $< $(LIB) $(LDSAN) $(CUDA_LIBS) $(LIBS)

$(BUILD)/rvtime: tests/bench/rvtime.c $(STAMP_CC)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LDSAN)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# ---- set-up, tests, bench ------------------------------------------------------
deps:
	@.ci/install-deps

run: deps
	@$(MAKE) --no-print-directory all
	./repview

test: deps
	@$(MAKE) --no-print-directory all
	@tests/run $(BUILD)

check: all
	@tests/run $(BUILD)

# no MPI under the sanitizers: Open MPI's own allocations read as leaks
asan:
	@$(MAKE) --no-print-directory BUILD=build-asan SAN=1 OPT=-O1 NO_CUDA=1 NO_MPI=1 all
	@ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 RV_TEST_QUICK=1 tests/run build-asan

# every libFuzzer harness for FUZZ_SECONDS each (tests/fuzz/run; needs clang)
FUZZ_SECONDS ?= 60
fuzz:
	@tests/fuzz/run $(FUZZ_SECONDS)

nocuda:
	@$(MAKE) --no-print-directory BUILD=build-nocuda NO_CUDA=1 all

bench: deps all
	@tests/bench/run $(BUILD)

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 repview $(DESTDIR)$(PREFIX)/bin/repview
	install -m 644 man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -d $(DESTDIR)$(PREFIX)/share/man/man7
	install -m 644 man/*.7 $(DESTDIR)$(PREFIX)/share/man/man7/
	install -D -m 644 samples/lambda.fa.gz $(DESTDIR)$(PREFIX)/share/repview/lambda.fa.gz

clean:
	rm -rf build build-asan build-nocuda build-fuzz repview
