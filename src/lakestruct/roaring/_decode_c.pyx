# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled twin of ``lakestruct.roaring._decode``: the same checks in the same order, in C loops.

Pass 1 walks every header and container and checks every rule but array order,
summing the cardinality; the output is then allocated once and pass 2 walks
again, filling it (and checking that array values ascend). Nothing is
allocated in proportion to a count read from the input before the input has
proved it (pass 1 reads every byte it counts).

A bitmap without run containers (cookie 12346: every deletion vector of sparse
deletes) takes a path of its own in both passes, in C: pass 1 is one loop
without a branch per container (``ls_plain_check``), and pass 2 fills runs of
array containers of up to 4 values with one descriptor load, one 8-byte load
and two 16-byte stores each (``ls_fill_small64``; SSE2 where the compiler has
it, the same in plain C elsewhere).
"""

import numpy as np
cimport numpy as cnp
from libc.stdint cimport int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

from lakestruct.errors import FormatError, LimitError, MagicError, TruncatedError, UsageError

cnp.import_array()

cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>
    #if defined(__SSE2__)
    #include <emmintrin.h>
    #endif
    static inline int ls_ctz64(unsigned long long x) { return __builtin_ctzll(x); }
    static inline int ls_pop64(unsigned long long x) { return __builtin_popcountll(x); }

    /* Array containers of 1..4 values. ls_small64/ls_small32 write the four u16 slots at src (8 bytes, read in
       one load), each OR hi, to o[0..3]: the slots past the container's card values get junk that the next
       container overwrites (the output has 3 spare slots at its end). They return nonzero if the card values fail
       to ascend strictly. No branch on card. */
    #if defined(__SSE2__)
    /* two movemask bits a 16-bit lane; lane i (0..2) compares value i+1 with value i; lanes 0..card-2 count */
    static const int ls_order_mask[5] = {0, 0, 0x3, 0xF, 0x3F};
    static inline int ls_order_bad(__m128i v, uint32_t card) {
        /* value i+1 minus value i, saturated, is 0 where value i+1 <= value i */
        __m128i z = _mm_setzero_si128();
        return _mm_movemask_epi8(_mm_cmpeq_epi16(_mm_subs_epu16(_mm_srli_epi64(v, 16), v), z)) & ls_order_mask[card];
    }
    static inline int ls_small64(const uint8_t* src, uint32_t card, uint64_t hi, uint64_t* o) {
        __m128i v = _mm_loadl_epi64((const __m128i*)src), z = _mm_setzero_si128();
        __m128i w = _mm_unpacklo_epi16(v, z), h = _mm_set1_epi64x((long long)hi);
        _mm_storeu_si128((__m128i*)o, _mm_or_si128(_mm_unpacklo_epi32(w, z), h));
        _mm_storeu_si128((__m128i*)(o + 2), _mm_or_si128(_mm_unpackhi_epi32(w, z), h));
        return ls_order_bad(v, card);
    }
    /* ls_small64 for the fill loop: each 64-bit lane built from 16-bit words without an OR: (value, container
       key) interleaved, the key's word taken from the descriptor dw as it is, then with the bitmap's 64-bit key
       k (32-bit lanes, set once a bitmap) */
    static inline int ls_small64_dw(const uint8_t* src, uint32_t card, uint32_t dw, __m128i k, uint64_t* o) {
        __m128i v = _mm_loadl_epi64((const __m128i*)src);
        __m128i t = _mm_unpacklo_epi16(v, _mm_shufflelo_epi16(_mm_cvtsi32_si128((int)dw), 0));
        _mm_storeu_si128((__m128i*)o, _mm_unpacklo_epi32(t, k));
        _mm_storeu_si128((__m128i*)(o + 2), _mm_unpackhi_epi32(t, k));
        return ls_order_bad(v, card);
    }
    static inline int ls_small32(const uint8_t* src, uint32_t card, uint32_t hi, uint32_t* o) {
        __m128i v = _mm_loadl_epi64((const __m128i*)src);
        _mm_storeu_si128((__m128i*)o, _mm_or_si128(_mm_unpacklo_epi16(v, _mm_setzero_si128()), _mm_set1_epi32((int)hi)));
        return ls_order_bad(v, card);
    }
    #else
    #define LS_SMALL(NAME, T)                                                                                        \
    static inline int NAME(const uint8_t* src, uint32_t card, T hi, T* o) {                                         \
        uint64_t word;                                                                                               \
        memcpy(&word, src, 8); /* like every load here, assumes a little-endian host */                            \
        uint32_t v0 = word & 0xFFFF, v1 = (word >> 16) & 0xFFFF, v2 = (word >> 32) & 0xFFFF, v3 = word >> 48;       \
        o[0] = hi | v0; o[1] = hi | v1; o[2] = hi | v2; o[3] = hi | v3;                                             \
        return ((card > 1) & (v1 <= v0)) | ((card > 2) & (v2 <= v1)) | ((card > 3) & (v3 <= v2));                   \
    }
    LS_SMALL(ls_small64, uint64_t)
    LS_SMALL(ls_small32, uint32_t)
    #endif

    /* Pass 2 of a bitmap without run containers (descriptors at d): fill containers i, i+1, ... while they are
       arrays of at most 4 values whose 8-byte load starts at or before lim and whose values ascend. Returns the
       index of the first container not filled (size when none is left), with *pos_io (the byte position of its
       body) and *o_io (its first output slot) advanced past those filled. khi: the bitmap's 64-bit key << 32. */
    #define LS_FILL_SMALL(NAME, T, SMALL_FN)                                                                         \
    static Py_ssize_t NAME(const uint8_t* b, const uint8_t* d, Py_ssize_t i, Py_ssize_t size, Py_ssize_t* pos_io,   \
                           Py_ssize_t lim, uint64_t khi, T** o_io) {                                                \
        Py_ssize_t pos = *pos_io;                                                                                    \
        T* o = *o_io;                                                                                                \
        uint32_t dw, card;                                                                                           \
        for (; i < size; i++) {                                                                                      \
            memcpy(&dw, d + 4 * i, 4);                                                                               \
            card = (dw >> 16) + 1;                                                                                   \
            if (card > 4 || pos > lim || SMALL_FN(b + pos, card, (T)(khi | ((uint64_t)(dw & 0xFFFF) << 16)), o))     \
                break;                                                                                               \
            o += card;                                                                                               \
            pos += 2 * card;                                                                                         \
        }                                                                                                            \
        *pos_io = pos;                                                                                               \
        *o_io = o;                                                                                                   \
        return i;                                                                                                    \
    }
    LS_FILL_SMALL(ls_fill_small32, uint32_t, ls_small32)
    #if defined(__SSE2__)
    static Py_ssize_t ls_fill_small64(const uint8_t* b, const uint8_t* d, Py_ssize_t i, Py_ssize_t size,
                                      Py_ssize_t* pos_io, Py_ssize_t lim, uint64_t khi, uint64_t** o_io) {
        Py_ssize_t pos = *pos_io;
        uint64_t* o = *o_io;
        uint32_t dw, card;
        __m128i k = _mm_set1_epi32((int)(uint32_t)(khi >> 32));
        for (; i < size; i++) {
            memcpy(&dw, d + 4 * i, 4);
            card = (dw >> 16) + 1;
            if (card > 4 || pos > lim || ls_small64_dw(b + pos, card, dw, k, o)) break;
            o += card;
            pos += 2 * card;
        }
        *pos_io = pos;
        *o_io = o;
        return i;
    }
    #else
    LS_FILL_SMALL(ls_fill_small64, uint64_t, ls_small64)
    #endif

    /* Pass 1 of a bitmap without run containers (size >= 1 descriptors at d, offset header at ofs, both in bounds),
       in one loop without a branch: keys ascend, the first offset is first_ofs and each next one is the previous
       plus the container's size (2 * cardinality, 8192 for a bitmap container). Sets *total to the sum of the
       cardinalities and *nbig to the number of bitmap containers; returns nonzero if a check fails. Offsets are
       compared modulo 2^32, which is exact: a bitmap's containers and headers span less than 2^30 bytes. */
    static uint32_t ls_plain_check(const uint8_t* d, const uint8_t* ofs, Py_ssize_t size, uint32_t first_ofs,
                                   uint64_t* total, uint64_t* nbig) {
        /* 32-bit lanes for the vectoriser: m = cardinality - 1 (< 2^16) summed over at most 65536 containers fits */
        uint32_t bad, a, b, o0, o1, m, tot = 0, big = 0;
        Py_ssize_t i;
        memcpy(&o0, ofs, 4);
        bad = o0 ^ first_ofs;
        for (i = 0; i + 1 < size; i++) {
            memcpy(&a, d + 4 * i, 4);
            memcpy(&b, d + 4 * i + 4, 4);
            memcpy(&o0, ofs + 4 * i, 4);
            memcpy(&o1, ofs + 4 * i + 4, 4);
            m = a >> 16;
            bad |= (o1 - o0) ^ (m < 4096 ? 2 * m + 2 : 8192);
            bad |= (uint32_t)((b & 0xFFFF) <= (a & 0xFFFF));
            tot += m;
            big += m >= 4096;
        }
        memcpy(&a, d + 4 * (size - 1), 4);
        m = a >> 16;
        *total = (uint64_t)tot + m + (uint64_t)size;
        *nbig = big + (m >= 4096);
        return bad;
    }
    """
    int ls_ctz64(unsigned long long x) nogil
    int ls_pop64(unsigned long long x) nogil
    int ls_small64(const uint8_t* src, uint32_t card, uint64_t hi, uint64_t* o) nogil
    int ls_small32(const uint8_t* src, uint32_t card, uint32_t hi, uint32_t* o) nogil
    Py_ssize_t ls_fill_small64(const uint8_t* b, const uint8_t* d, Py_ssize_t i, Py_ssize_t size, Py_ssize_t* pos_io,
                               Py_ssize_t lim, uint64_t khi, uint64_t** o_io) nogil
    Py_ssize_t ls_fill_small32(const uint8_t* b, const uint8_t* d, Py_ssize_t i, Py_ssize_t size, Py_ssize_t* pos_io,
                               Py_ssize_t lim, uint64_t khi, uint32_t** o_io) nogil
    uint32_t ls_plain_check(const uint8_t* d, const uint8_t* ofs, Py_ssize_t size, uint32_t first_ofs, uint64_t* total,
                            uint64_t* nbig) nogil

cdef inline uint32_t rd16(const uint8_t* b, Py_ssize_t p) noexcept nogil:
    cdef uint16_t v
    memcpy(&v, b + p, 2)  # one load; like rd32 and rd64, assumes a little-endian host
    return v

cdef inline uint32_t rd32(const uint8_t* b, Py_ssize_t p) noexcept nogil:
    cdef uint32_t v
    memcpy(&v, b + p, 4)
    return v

cdef inline uint64_t rd64(const uint8_t* b, Py_ssize_t p) noexcept nogil:
    cdef uint64_t v
    memcpy(&v, b + p, 8)
    return v

KIND_NAMES = ("array", "bitmap", "run")

# Array containers of at most SMALL values are filled without a branch on their count (ls_small64, ls_small32)
cdef enum:
    SMALL = 4


ctypedef fused slot_t:  # the output's element: uint64 (64-bit bitmaps, 32-bit ones decoded wide) or uint32
    uint32_t
    uint64_t


cdef inline int small_fill(const uint8_t* b, Py_ssize_t pos, Py_ssize_t card, uint64_t hi, slot_t* o) noexcept nogil:
    if slot_t is uint64_t:
        return ls_small64(b + pos, <uint32_t>card, hi, o)
    else:
        return ls_small32(b + pos, <uint32_t>card, <uint32_t>hi, o)

# The output is uint64 (64-bit bitmaps, or 32-bit ones decoded wide) or uint32 (32-bit bitmaps decoded narrow):
# ``_fill`` and ``_fill_plain`` are compiled for both (``slot_t``).


cdef class _Walker:
    cdef const uint8_t* b
    cdef Py_ssize_t n
    cdef int64_t base
    cdef str path
    cdef bint iceberg
    cdef bint fill
    cdef uint64_t* out
    cdef uint32_t* out32  # set instead of out for a 32-bit bitmap decoded narrow
    cdef Py_ssize_t k
    cdef int64_t total
    cdef int64_t* st
    cdef int64_t* sz
    cdef uint8_t* kd
    cdef Py_ssize_t bidx

    def __cinit__(self):
        # work arrays of the staged checks, allocated only when a bitmap fails the fast check (1.1 MB: allocating
        # them for every decode cost ~14 us, more than decoding a small deletion vector)
        self.st = NULL
        self.sz = NULL
        self.kd = NULL

    cdef int work_arrays(self) except -1:
        if self.st == NULL:
            self.st = <int64_t*>malloc(65536 * sizeof(int64_t))
            self.sz = <int64_t*>malloc(65536 * sizeof(int64_t))
            self.kd = <uint8_t*>malloc(65536)
            if self.st == NULL or self.sz == NULL or self.kd == NULL:
                raise MemoryError()
        return 0

    def __dealloc__(self):
        free(self.st)
        free(self.sz)
        free(self.kd)

    cdef object err(self, cls, str msg, str rule, str sub, Py_ssize_t pos):
        return cls(msg, rule=rule, path=(f"{self.path}.{sub}" if self.path else sub), offset=self.base + pos)

    cdef str hd(self):
        """Path head of the current 32-bit bitmap (built only for an error message)."""
        return f"bitmaps[{self.bidx}]." if self.bidx >= 0 else ""

    cdef int array_order(self, Py_ssize_t pos, Py_ssize_t card, Py_ssize_t i) except -1:
        """Raise the array-order error of container ``i`` (``card`` values at ``pos``), found to fail."""
        cdef Py_ssize_t j
        cdef uint32_t v, prev = rd16(self.b, pos)
        for j in range(1, card):
            v = rd16(self.b, pos + 2 * j)
            if v <= prev:
                raise self.err(FormatError, f"array value {v} does not follow {prev} in strictly ascending order",
                               "roaring32.array-order", f"{self.hd()}containers[{i}].values[{j}]", pos + 2 * j)
            prev = v
        raise AssertionError("array_order called on an ascending container")  # pragma: no cover

    cdef int need(self, Py_ssize_t pos, Py_ssize_t count, str rule, str sub) except -1:
        """Bounds check; ``sub`` is relative to the current bitmap (its head is prefixed on error)."""
        if pos + count > self.n:
            raise self.err(TruncatedError, f"needs {count} bytes at {self.base + pos} but the input ends at {self.base + self.n}",
                           rule, self.hd() + sub, pos)
        return 0

    cdef Py_ssize_t bitmap32(self, Py_ssize_t p, uint64_t key, Py_ssize_t bidx) except -1:
        cdef const uint8_t* b = self.b
        cdef Py_ssize_t n = self.n
        cdef Py_ssize_t hdr, ofs_hdr, body, pos, i, j, size, nb, flags_pos = 0, s
        cdef uint32_t cookie, o, rs, rl, prev_end, v, prev
        cdef bint has_runs, has_offsets
        cdef int64_t* st
        cdef int64_t* sz
        cdef uint8_t* kd
        cdef int64_t card, nr, total, sm
        cdef uint64_t hi, word
        cdef uint64_t* out = self.out
        cdef Py_ssize_t k
        self.bidx = bidx
        self.need(p, 4, "roaring32.truncated", "cookie")
        cookie = rd32(b, p)
        if cookie == 12346:
            self.need(p + 4, 4, "roaring32.truncated", "num_containers")
            size = rd32(b, p + 4)
            if size > 65536:
                raise self.err(FormatError, f"{size} containers declared; at most 65536 exist", "roaring32.container-count",
                               self.hd() + "num_containers", p + 4)
            hdr = p + 8
            has_runs = False
            has_offsets = True
        elif (cookie & 0xFFFF) == 12347:
            size = (cookie >> 16) + 1
            nb = (size + 7) // 8
            self.need(p + 4, nb, "roaring32.truncated", "run_flags")
            flags_pos = p + 4
            hdr = p + 4 + nb
            has_runs = True
            has_offsets = size >= 4
        else:
            raise self.err(MagicError, f"cookie 0x{cookie:08x} is neither 12346 (no runs) nor 12347 (runs) in its low 16 bits",
                           "roaring32.cookie", self.hd() + "cookie", p)
        if size == 0:
            return hdr
        self.need(hdr, 4 * size, "roaring32.truncated", "descriptors")
        ofs_hdr = hdr + 4 * size
        body = ofs_hdr + (4 * size if has_offsets else 0)
        if self.fill:  # pass 2: everything but array order was proved by pass 1
            return self.fill32(p, key, hdr, size, has_runs, flags_pos, body)
        pos = self.fast_check32(p, hdr, size, has_runs, has_offsets, flags_pos, ofs_hdr, body)
        if pos >= 0:
            return pos
        # Something is wrong: the staged checks below find the first error in the canonical order
        # (the same order as the NumPy twin) and raise it.
        self.work_arrays()
        st = self.st
        sz = self.sz
        kd = self.kd
        for i in range(1, size):
            if rd16(b, hdr + 4 * i) <= rd16(b, hdr + 4 * (i - 1)):
                raise self.err(FormatError, f"container key {rd16(b, hdr + 4 * i)} does not follow {rd16(b, hdr + 4 * (i - 1))} "
                               "in strictly ascending order", "roaring32.key-order", f"{self.hd()}descriptors[{i}].key", hdr + 4 * i)
        ofs_hdr = hdr + 4 * size
        if has_offsets:
            self.need(ofs_hdr, 4 * size, "roaring32.truncated", "offsets")
            body = ofs_hdr + 4 * size
        else:
            body = ofs_hdr
        for i in range(size):
            card = rd16(b, hdr + 4 * i + 2) + 1
            if has_runs and (b[flags_pos + i // 8] >> (i % 8)) & 1:
                kd[i] = 2
                sz[i] = 2
            elif card <= 4096:
                kd[i] = 0
                sz[i] = 2 * card
            else:
                kd[i] = 1
                sz[i] = 8192
        pos = body
        if has_offsets:
            for i in range(size):
                o = rd32(b, ofs_hdr + 4 * i)
                if <int64_t>o != pos - p:
                    raise self.err(FormatError, f"offset header says container {i} starts at byte {o} of the bitmap; "
                                   f"the containers before it end at byte {pos - p}", "roaring32.container-offset",
                                   f"{self.hd()}offsets[{i}]", ofs_hdr + 4 * i)
                st[i] = pos
                if kd[i] == 2:
                    sz[i] = 2 + 4 * <int64_t>(rd16(b, pos) if pos + 2 <= n else 0)
                pos += sz[i]
        else:
            for i in range(size):
                st[i] = pos
                if kd[i] == 2:
                    self.need(pos, 2, "roaring32.truncated", f"containers[{i}].num_runs")
                    sz[i] = 2 + 4 * <int64_t>rd16(b, pos)
                pos += sz[i]
        if pos > n:
            for i in range(size):
                if st[i] + sz[i] > n:
                    raise self.err(TruncatedError, f"{KIND_NAMES[kd[i]]} container of {sz[i]} bytes at {self.base + st[i]} "
                                   f"runs past the end of the input ({self.base + n})", "roaring32.truncated",
                                   f"{self.hd()}containers[{i}]", st[i])
        if not self.fill:
            if has_runs:
                for i in range(size):
                    if kd[i] != 2:
                        continue
                    nr = (sz[i] - 2) // 4
                    for j in range(nr):
                        rs = rd16(b, st[i] + 2 + 4 * j)
                        rl = rd16(b, st[i] + 4 + 4 * j)
                        if rs + rl > 0xFFFF:
                            raise self.err(FormatError, f"run starting at {rs} with length-1 {rl} ends past 65535",
                                           "roaring32.run-overflow", f"{self.hd()}containers[{i}].runs[{j}].length_minus_one",
                                           st[i] + 4 + 4 * j)
                for i in range(size):
                    if kd[i] != 2:
                        continue
                    nr = (sz[i] - 2) // 4
                    for j in range(1, nr):
                        prev_end = rd16(b, st[i] + 4 * j - 2) + rd16(b, st[i] + 4 * j)
                        rs = rd16(b, st[i] + 2 + 4 * j)
                        if rs <= prev_end:
                            raise self.err(FormatError, f"run start {rs} overlaps or precedes the previous run (ending at {prev_end})",
                                           "roaring32.run-order", f"{self.hd()}containers[{i}].runs[{j}].start", st[i] + 2 + 4 * j)
                for i in range(size):
                    if kd[i] != 2:
                        continue
                    nr = (sz[i] - 2) // 4
                    for j in range(1, nr):
                        prev_end = rd16(b, st[i] + 4 * j - 2) + rd16(b, st[i] + 4 * j)
                        rs = rd16(b, st[i] + 2 + 4 * j)
                        if rs == prev_end + 1:
                            raise self.err(FormatError, f"run start {rs} starts right after the previous run (ending at {prev_end}); "
                                           "runs must be merged", "roaring32.run-adjacent", f"{self.hd()}containers[{i}].runs[{j}].start",
                                           st[i] + 2 + 4 * j)
                for i in range(size):
                    if kd[i] != 2:
                        continue
                    nr = (sz[i] - 2) // 4
                    sm = 0
                    for j in range(nr):
                        sm += <int64_t>rd16(b, st[i] + 4 + 4 * j) + 1
                    card = rd16(b, hdr + 4 * i + 2) + 1
                    if sm != card:
                        raise self.err(FormatError, f"run container holds {sm} values but its descriptor says cardinality {card}",
                                       "roaring32.run-cardinality", f"{self.hd()}descriptors[{i}].cardinality", hdr + 4 * i + 2)
            for i in range(size):
                if kd[i] != 1:
                    continue
                sm = 0
                for j in range(1024):
                    sm += ls_pop64(rd64(b, st[i] + 8 * j))
                card = rd16(b, hdr + 4 * i + 2) + 1
                if sm != card:
                    raise self.err(FormatError, f"bitmap container has {sm} bits set but its descriptor says cardinality {card}",
                                   "roaring32.bitmap-cardinality", f"{self.hd()}descriptors[{i}].cardinality", hdr + 4 * i + 2)
        raise AssertionError("fast_check32 rejected a bitmap that the staged checks accept")  # pragma: no cover

    cdef Py_ssize_t fast_check32(self, Py_ssize_t p, Py_ssize_t hdr, Py_ssize_t size, bint has_runs, bint has_offsets,
                                 Py_ssize_t flags_pos, Py_ssize_t ofs_hdr, Py_ssize_t body) except -2:
        """Every pass-1 check fused in one loop; returns the end, or -1 if any check fails (no error built)."""
        cdef const uint8_t* b = self.b
        cdef Py_ssize_t n = self.n, pos = body, i, j, sz
        cdef int64_t prev_key = -1, card, nr, sm, total = 0, prev_end
        cdef uint32_t ckey, rs, rl
        if has_offsets and ofs_hdr + 4 * size > n:
            return -1
        if not has_runs:
            return self.fast_check_plain(p, hdr, size, ofs_hdr, body)
        for i in range(size):
            ckey = rd16(b, hdr + 4 * i)
            card = <int64_t>rd16(b, hdr + 4 * i + 2) + 1
            if <int64_t>ckey <= prev_key:
                return -1
            prev_key = ckey
            if has_offsets and <int64_t>rd32(b, ofs_hdr + 4 * i) != pos - p:
                return -1
            if has_runs and (b[flags_pos + i // 8] >> (i % 8)) & 1:
                if pos + 2 > n:
                    return -1
                nr = rd16(b, pos)
                sz = 2 + 4 * nr
                if pos + sz > n:
                    return -1
                sm = 0
                prev_end = -2
                for j in range(nr):
                    rs = rd16(b, pos + 2 + 4 * j)
                    rl = rd16(b, pos + 4 + 4 * j)
                    if rs + rl > 0xFFFF or <int64_t>rs <= prev_end + 1:
                        return -1
                    prev_end = rs + rl
                    sm += rl + 1
                if sm != card:
                    return -1
            elif card <= 4096:
                sz = 2 * card
                if pos + sz > n:
                    return -1
            else:
                sz = 8192
                if pos + sz > n:
                    return -1
                sm = 0
                for j in range(1024):
                    sm += ls_pop64(rd64(b, pos + 8 * j))
                if sm != card:
                    return -1
            total += card
            pos += sz
        self.total += total
        return pos

    cdef Py_ssize_t fast_check_plain(self, Py_ssize_t p, Py_ssize_t hdr, Py_ssize_t size, Py_ssize_t ofs_hdr,
                                     Py_ssize_t body) except -2:
        """``fast_check32`` of a bitmap without run containers (cookie 12346: so with an offset header, in bounds):
        ``ls_plain_check``, then the end's bounds and the bitmap containers' popcounts."""
        cdef const uint8_t* b = self.b
        cdef Py_ssize_t i, j, end
        cdef uint64_t total, nbig, sm, card
        cdef uint32_t last
        if ls_plain_check(b + hdr, b + ofs_hdr, size, <uint32_t>(body - p), &total, &nbig):
            return -1
        # the offsets are proved: the last one and its container's size give the end
        last = rd32(b, hdr + 4 * (size - 1)) >> 16
        end = p + <Py_ssize_t>rd32(b, ofs_hdr + 4 * (size - 1)) + (2 * (<Py_ssize_t>last + 1) if last < 4096 else 8192)
        if end > self.n:
            return -1
        if nbig:
            for i in range(size):
                card = (rd32(b, hdr + 4 * i) >> 16) + 1
                if card > 4096:
                    sm = 0
                    for j in range(1024):
                        sm += ls_pop64(rd64(b, p + <Py_ssize_t>rd32(b, ofs_hdr + 4 * i) + 8 * j))
                    if sm != card:
                        return -1
        self.total += total
        return end

    cdef Py_ssize_t fill32(self, Py_ssize_t p, uint64_t key, Py_ssize_t hdr, Py_ssize_t size, bint has_runs,
                           Py_ssize_t flags_pos, Py_ssize_t body) except -1:
        """Pass 2: write every value; array order is the one check left."""
        if self.out32 != NULL:  # a 32-bit bitmap decoded narrow
            if not has_runs:
                return _fill_plain(self, self.out32, key, hdr, size, body)
            return _fill(self, self.out32, key, hdr, size, has_runs, flags_pos, body)
        if not has_runs:
            return _fill_plain(self, self.out, key, hdr, size, body)
        return _fill(self, self.out, key, hdr, size, has_runs, flags_pos, body)

    cdef Py_ssize_t bitmap64(self) except -1:
        cdef const uint8_t* b = self.b
        cdef uint64_t count, bi
        cdef Py_ssize_t p
        cdef int64_t last = -1
        cdef uint32_t key
        self.bidx = -1
        self.need(0, 8, "roaring64.truncated", "num_bitmaps")
        count = rd64(b, 0)
        if count > 0xFFFFFFFF:
            raise self.err(FormatError, f"{count} bitmaps declared; the format allows at most 2^32-1", "roaring64.bitmap-count",
                           "num_bitmaps", 0)
        if <int64_t>(12 * count) > self.n - 8:
            raise self.err(TruncatedError, f"{count} bitmaps declared, which need at least {12 * count} bytes; {self.n - 8} follow",
                           "roaring64.bitmap-count", "num_bitmaps", 0)
        p = 8
        for bi in range(count):
            if p + 4 > self.n:
                self.bidx = -1
                self.need(p, 4, "roaring64.truncated", f"bitmaps[{bi}].key")
            key = rd32(b, p)
            if self.iceberg and not self.fill:
                if key >= 0x80000000:
                    raise self.err(FormatError, f"Invalid unsigned key: {<int64_t>key - 0x100000000} (key {key} has its top bit set; "
                                   "positions must be non-negative 64-bit ints)", "deletion-vector.key-unsigned",
                                   f"bitmaps[{bi}].key", p)
                if key > 0x7FFFFFFE:
                    raise self.err(FormatError, f"Key is too large: {key} (Iceberg allows at most 2147483646)",
                                   "deletion-vector.key-too-large", f"bitmaps[{bi}].key", p)
            if <int64_t>key <= last:
                raise self.err(FormatError, f"key {key} does not follow {last} in strictly ascending (unsigned) order",
                               "roaring64.key-order", f"bitmaps[{bi}].key", p)
            last = key
            p = self.bitmap32(p + 4, key, bi)
        return p


cdef Py_ssize_t _fill(_Walker w, slot_t* out, uint64_t key, Py_ssize_t hdr, Py_ssize_t size, bint has_runs,
                      Py_ssize_t flags_pos, Py_ssize_t body) except -1:
    """The fill loop of ``_Walker.fill32``, writing uint64 or, for a 32-bit bitmap decoded narrow (key 0), uint32."""
    cdef const uint8_t* b = w.b
    cdef Py_ssize_t k = w.k, pos = body, i, j, card, nr, n = w.n
    cdef uint64_t hi, word
    cdef uint32_t v, prev, rs, rl
    for i in range(size):
        hi = (key << 32) | (<uint64_t>rd16(b, hdr + 4 * i) << 16)
        card = <Py_ssize_t>rd16(b, hdr + 4 * i + 2) + 1
        if has_runs and (b[flags_pos + i // 8] >> (i % 8)) & 1:
            nr = rd16(b, pos)
            for j in range(nr):
                rs = rd16(b, pos + 2 + 4 * j)
                rl = rd16(b, pos + 4 + 4 * j)
                for v in range(rs, rs + rl + 1):
                    out[k] = <slot_t>(hi | v)
                    k += 1
            pos += 2 + 4 * nr
        elif card <= SMALL and pos + 2 * SMALL <= n:
            # 1..4 values (sparse deletes: almost every container): four slots written and checked without a branch
            # on the count; the slots past the count are overwritten next (the output has SMALL - 1 spare slots at
            # its end)
            if small_fill(b, pos, card, hi, out + k):
                w.k = k
                w.array_order(pos, card, i)
            k += card
            pos += 2 * card
        elif card <= 4096:
            prev = 0
            for j in range(card):
                v = rd16(b, pos + 2 * j)
                if j > 0 and v <= prev:
                    w.k = k
                    raise w.err(FormatError, f"array value {v} does not follow {prev} in strictly ascending order",
                                "roaring32.array-order", f"{w.hd()}containers[{i}].values[{j}]", pos + 2 * j)
                out[k] = <slot_t>(hi | v)
                k += 1
                prev = v
            pos += 2 * card
        else:
            for j in range(1024):
                word = rd64(b, pos + 8 * j)
                while word:
                    out[k] = <slot_t>(hi | <uint64_t>(64 * j + ls_ctz64(word)))
                    k += 1
                    word &= word - 1
            pos += 8192
    w.k = k
    return pos


cdef Py_ssize_t _fill_plain(_Walker w, slot_t* out, uint64_t key, Py_ssize_t hdr, Py_ssize_t size,
                            Py_ssize_t body) except -1:
    """``_fill`` of a bitmap without run containers: runs of small array containers by ``ls_fill_small*``; the
    others, and a small one that fails the order check or whose 8-byte load would pass the end, one by one here."""
    cdef const uint8_t* b = w.b
    cdef const uint8_t* d = b + hdr
    cdef slot_t* o = out + w.k
    cdef Py_ssize_t pos = body, i = 0, j, card, lim = w.n - 2 * SMALL
    cdef uint64_t khi = key << 32, hi, word
    cdef uint32_t dw, v, prev
    while True:
        if slot_t is uint64_t:
            i = ls_fill_small64(b, d, i, size, &pos, lim, khi, &o)
        else:
            i = ls_fill_small32(b, d, i, size, &pos, lim, khi, &o)
        if i >= size:
            break
        dw = rd32(d, 4 * i)
        hi = khi | (<uint64_t>(dw & 0xFFFF) << 16)
        card = <Py_ssize_t>(dw >> 16) + 1
        if card <= 4096:
            prev = 0
            for j in range(card):
                v = rd16(b, pos + 2 * j)
                if j > 0 and v <= prev:
                    w.k = o - out
                    raise w.err(FormatError, f"array value {v} does not follow {prev} in strictly ascending order",
                                "roaring32.array-order", f"{w.hd()}containers[{i}].values[{j}]", pos + 2 * j)
                o[0] = <slot_t>(hi | v)
                o += 1
                prev = v
            pos += 2 * card
        else:
            for j in range(1024):
                word = rd64(b, pos + 8 * j)
                while word:
                    o[0] = <slot_t>(hi | <uint64_t>(64 * j + ls_ctz64(word)))
                    o += 1
                    word &= word - 1
            pos += 8192
        i += 1
    w.k = o - out
    return pos


cdef object _run(object data, int64_t base, str path, bint is64, bint iceberg, bint allow_trailing, int64_t max_positions,
                 bint narrow=False):
    cdef const uint8_t[::1] view = memoryview(data).cast("B")
    cdef _Walker w = _Walker()
    cdef Py_ssize_t end
    cdef cnp.ndarray out
    if max_positions < -1:  # -1 stands for None (no limit); any other negative limit is a caller's mistake
        raise UsageError(f"max_positions must be >= 0 or None, not {max_positions}")
    w.n = view.shape[0]
    w.b = &view[0] if w.n > 0 else <const uint8_t*>b""
    w.base = base
    w.path = path
    w.iceberg = iceberg
    w.fill = False
    w.total = 0
    end = w.bitmap64() if is64 else w.bitmap32(0, 0, -1)
    if not allow_trailing and end != w.n:
        raise w.err(FormatError, f"{w.n - end} bytes follow the end of the bitmap",
                    "roaring64.trailing-bytes" if is64 else "roaring32.trailing-bytes", "trailing", end)
    if max_positions >= 0 and w.total > max_positions:
        raise LimitError(f"the bitmap holds {w.total} positions; the limit is {max_positions}", rule="roaring.max-positions",
                         path=path or "bitmap", offset=base)
    if w.total == 0:
        return np.empty(0, dtype=np.uint32 if narrow else np.uint64)
    # SMALL - 1 spare slots: filling a small array container writes SMALL slots (those past its values are
    # overwritten next)
    out = np.empty(w.total + SMALL - 1, dtype=np.uint32 if narrow else np.uint64)
    if narrow:
        w.out = NULL
        w.out32 = <uint32_t*>cnp.PyArray_DATA(out)
    else:
        w.out = <uint64_t*>cnp.PyArray_DATA(out)
        w.out32 = NULL
    w.k = 0
    w.fill = True
    if is64:
        w.bitmap64()
    else:
        w.bitmap32(0, 0, -1)
    assert w.k == w.total
    return out[: w.total]


def decode64(data, int64_t base, str path, bint iceberg, bint allow_trailing, int64_t max_positions):
    """Sorted uint64 values of a 64-bit portable bitmap (see ``_decode.decode64``)."""
    return _run(data, base, path, True, iceberg, allow_trailing, max_positions)


def decode32(data, int64_t base, str path, bint allow_trailing, int64_t max_positions, bint wide=False):
    """Sorted values of a 32-bit portable bitmap (see ``_decode.decode32``): uint32, written straight into the
    output (4 bytes per value), or uint64 with ``wide``."""
    return _run(data, base, path, False, False, allow_trailing, max_positions, not wide)
