//! The command line's memory allocator: the system's, with large blocks in huge pages.
//!
//! A 20 MiB feed is read into one buffer (and, in a legacy encoding, decoded into a
//! second one). The system allocator maps such a block fresh from the kernel, and the
//! kernel then faults it in one 4 KiB page at a time: about 5,100 faults for the input
//! alone, 7 % of the whole run's CPU time (`feed-decoder --json` on the 20 MiB Atom
//! feed: 93 against 87 ms, medians of 15 paired runs). Where the kernel offers transparent huge
//! pages on request (`/sys/kernel/mm/transparent_hugepage/enabled` set to `madvise`, as
//! on most distributions, or `always`), asking for them on a large block makes those 2
//! MiB at a time, and the run makes about 800 faults in all. (Where memory is short of
//! free 2 MiB runs, the kernel's `defrag` setting decides whether such a fault waits for
//! compaction or takes small pages; either way the block works as any other.)
//!
//! So this allocator passes every request to [`System`] and, for a block of at least
//! [`LARGE`] bytes, advises the kernel (`madvise(MADV_HUGEPAGE)`) on the whole 2 MiB pages
//! inside it. Nothing else changes: small blocks (nearly all of them) are untouched, and
//! the advice only affects how the pages are backed, never what they hold. A general
//! allocator crate (mimalloc) gives the same gain on large feeds by committing its arenas
//! in huge pages up front, but then even a run over a few small feeds holds 22 MB (5.5
//! MB with this one), which is why this small piece is written here. On other systems,
//! or when the advice is refused, the system allocator's behaviour is all there is.
//!
//! The library sets no allocator: programs using it choose their own.

#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};

/// Blocks from this size on are advised (each holds at least one whole huge page).
const LARGE: usize = 4 << 20;

/// The allocator of the `feed-decoder` binary (see the module docs).
pub(crate) struct HugePagesForLargeBlocks;

/// Advises the kernel to back the whole huge pages of `[ptr, ptr + size)` with huge
/// pages. A refusal (no transparent huge pages, an old kernel) changes nothing, so the
/// result is ignored.
#[cfg(target_os = "linux")]
fn advise(ptr: *mut u8, size: usize) {
    const HUGE_PAGE: usize = 2 << 20;
    let start = (ptr as usize).next_multiple_of(HUGE_PAGE);
    let end = (ptr as usize + size) & !(HUGE_PAGE - 1);
    if end > start {
        // SAFETY: `[start, end)` lies inside a block the allocator just handed out, so
        // it is mapped memory of this process; MADV_HUGEPAGE only sets how its pages are
        // backed and never changes their contents.
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise(_ptr: *mut u8, _size: usize) {}

/// Advises a block just allocated, if it is large.
fn advise_large(ptr: *mut u8, size: usize) -> *mut u8 {
    if size >= LARGE && !ptr.is_null() {
        advise(ptr, size);
    }
    ptr
}

// SAFETY: every method hands the request to `System` unchanged and returns what it
// returns; `advise_large` only reads the address.
unsafe impl GlobalAlloc for HugePagesForLargeBlocks {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is `System`'s.
        advise_large(unsafe { System.alloc(layout) }, layout.size())
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as above.
        advise_large(unsafe { System.alloc_zeroed(layout) }, layout.size())
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as above.
        advise_large(unsafe { System.realloc(ptr, layout, new_size) }, new_size)
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    /// The `VmFlags` of the mapping of this process that holds `addr`, from
    /// `/proc/self/smaps`.
    fn vm_flags(addr: usize) -> Option<String> {
        let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
        let mut inside = false;
        for line in smaps.lines() {
            let first = line.split_whitespace().next().unwrap_or("");
            if let Some((lo, hi)) = first.split_once('-')
                && let (Ok(lo), Ok(hi)) =
                    (usize::from_str_radix(lo, 16), usize::from_str_radix(hi, 16))
            {
                inside = (lo..hi).contains(&addr);
            } else if inside && let Some(flags) = line.strip_prefix("VmFlags:") {
                return Some(flags.trim().to_owned());
            }
        }
        None
    }

    #[test]
    fn large_blocks_are_advised_and_small_ones_are_not() {
        // A kernel built without transparent huge pages refuses the advice (and has no
        // such folder): nothing to check there.
        if !std::path::Path::new("/sys/kernel/mm/transparent_hugepage").exists() {
            eprintln!("no transparent huge pages in this kernel: not checked");
            return;
        }
        // The binary's own allocator serves these (it is the global one in this test
        // binary too). `hg` is the kernel's mark of a range advised MADV_HUGEPAGE.
        let large: Vec<u8> = Vec::with_capacity(8 << 20);
        let middle = large.as_ptr() as usize + (4 << 20);
        let flags = vm_flags(middle).expect("the block's mapping is listed");
        assert!(
            flags.split_whitespace().any(|f| f == "hg"),
            "large block not advised: {flags}"
        );
        let small: Vec<u8> = Vec::with_capacity(64 << 10);
        let flags = vm_flags(small.as_ptr() as usize).unwrap_or_default();
        assert!(
            !flags.split_whitespace().any(|f| f == "hg"),
            "small block advised: {flags}"
        );
        // Grown by reallocation into a large block: advised too.
        let mut grown: Vec<u8> = Vec::with_capacity(1 << 20);
        grown.resize(1 << 20, 1);
        grown.reserve_exact(12 << 20);
        let middle = grown.as_ptr() as usize + (6 << 20);
        let flags = vm_flags(middle).expect("the grown block's mapping is listed");
        assert!(
            flags.split_whitespace().any(|f| f == "hg"),
            "grown block not advised: {flags}"
        );
        assert!(grown.iter().all(|&b| b == 1), "contents kept");
    }
}
