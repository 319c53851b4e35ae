//! Tables in memory on huge pages, where the system offers them. A search
//! reads its tables at random: with 4 KiB pages nearly every read of a
//! table of hundreds of megabytes also misses the TLB, with 2 MiB pages
//! the whole table fits in it. And a read can be started early
//! ([`prefetch`]), so that several misses wait at once.

use super::db::PatternDb;
use memmap2::MmapMut;

/// A copy of `bytes` in anonymous memory that asks for huge pages.
pub fn huge_page_copy(bytes: &[u8]) -> std::io::Result<MmapMut> {
    let mut memory = MmapMut::map_anon(bytes.len().max(1))?;
    // Advice before the first write, so that the pages are faulted in huge.
    // Only a hint: refused (or on other systems), the pages stay ordinary.
    #[cfg(target_os = "linux")]
    let _ = memory.advise(memmap2::Advice::HugePage);
    memory[..bytes.len()].copy_from_slice(bytes);
    Ok(memory)
}

impl<B: AsRef<[u8]>> PatternDb<B> {
    /// The same database with its tables copied onto huge pages.
    pub fn to_huge_pages(&self) -> std::io::Result<PatternDb<MmapMut>> {
        let tables = self
            .tables()
            .iter()
            .map(|t| huge_page_copy(t.as_ref()))
            .collect::<Result<Vec<_>, _>>()?;
        let db = PatternDb::toward(self.partition().clone(), self.goal_blank(), tables)
            .expect("the same tables fit the same partition");
        Ok(db.with_second_lookup(self.uses_second_lookup()))
    }
}

/// Asks the processor for the cache line of `table[index]` without waiting
/// for it, so that a read of it soon after finds it on its way. Only a
/// hint: elsewhere than on x86-64, or past the end, nothing happens.
#[inline(always)]
pub(super) fn prefetch(table: &[u8], index: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(byte) = table.get(index) {
        safe_arch::prefetch_t0(byte);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (table, index);
}
