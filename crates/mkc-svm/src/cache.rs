//! A cache of `Q` columns restricted to the active (unshrunk) set, stored compactly in
//! active-position order — the role of libsvm's kernel cache. The kernel itself is in
//! memory, so a cache miss is cheap to fill, but reading a column gathered at the active
//! rows touches every cache line of the full column; after shrinking, the compact copies
//! cut the memory traffic per iteration from O(n) to O(#active).
//!
//! Only used while some variables are shrunk. When the active set shrinks further
//! ([`ColumnCache::shrink_to`]) the cached columns are kept, and a column read one
//! shrinking later is compacted in place (a pass over its own entries, dropping the rows
//! no longer active) instead of gathered again from the kernel: at n = 4000, C = 10
//! (`cargo xtask compare svm`) a solve shrinks 19 times and, when the cache was dropped
//! at each shrinking, gathered 12 900 columns (35 % of its column reads) from the full
//! kernel. A column two or more shrinkings behind is gathered again: a warm start
//! shrinks every 100 iterations at first (every 40 with the warm-start polish, `Smo::run`
//! in the solver module), and compacting through every layout in between
//! made its SMO about 15 % slower than gathering. Compacting every cached column at each
//! shrinking cost more than gathering again the few still used (about 10 % of that
//! solve), hence lazily. A compacted column holds the same numbers as a fresh gather
//! (the same entries, copied).
//! Reactivating everything ([`ColumnCache::reset`]) drops the cache. Eviction by the
//! clock (second chance) rule; the budget is [`CACHE_BYTES`].

/// Memory budget of the column cache (libsvm's default is 200 MB of floats).
pub(crate) const CACHE_BYTES: usize = 256 << 20;

const NONE: u32 = u32::MAX;

pub(crate) struct ColumnCache {
    slot_of: Vec<u32>,
    owner: Vec<usize>,
    data: Vec<Vec<f64>>,
    referenced: Vec<bool>,
    /// The layout (shrinkings since the last reset) each slot's column is stored in.
    layout_of: Vec<u32>,
    /// The current layout: shrinkings since the last reset.
    layout: u32,
    /// The positions, in the layout before the current one, of the variables the
    /// current one keeps (increasing; empty right after a reset). Only a column one
    /// layout behind is compacted, so older lists are not needed.
    kept: Vec<u32>,
    /// The current active list.
    active: Vec<usize>,
    hand: usize,
    max_slots: usize,
}

impl ColumnCache {
    pub fn new(n: usize) -> Self {
        Self {
            slot_of: vec![NONE; n],
            owner: Vec::new(),
            data: Vec::new(),
            referenced: Vec::new(),
            layout_of: Vec::new(),
            layout: 0,
            kept: Vec::new(),
            active: Vec::new(),
            hand: 0,
            max_slots: 2,
        }
    }

    /// Drop every column; columns will be laid out on `active` (increasing indices)
    /// from now on.
    pub fn reset(&mut self, active: &[usize]) {
        for &j in &self.owner {
            self.slot_of[j] = NONE;
        }
        self.owner.clear();
        self.data.clear();
        self.referenced.clear();
        self.layout_of.clear();
        self.hand = 0;
        let m = active.len();
        self.max_slots = (CACHE_BYTES / (8 * m.max(1))).clamp(2, self.slot_of.len().max(2));
        self.layout = 0;
        self.kept.clear();
        self.active.clear();
        self.active.extend_from_slice(active);
    }

    /// The active set shrank to `active` (a subset of the current one, increasing):
    /// columns are kept and compacted when next read.
    pub fn shrink_to(&mut self, active: &[usize]) {
        self.kept.clear();
        let mut new = active.iter().peekable();
        for (p, &t) in self.active.iter().enumerate() {
            if new.peek() == Some(&&t) {
                self.kept.push(p as u32);
                new.next();
            }
        }
        debug_assert!(new.next().is_none(), "not a subset of the active set");
        self.layout += 1;
        self.active.clear();
        self.active.extend_from_slice(active);
    }

    /// Bring `col` from the layout before the current one to the current one:
    /// `col[t] = col[kept[t]]` in place (`kept[t] ≥ t`).
    #[inline(always)]
    fn compact(col: &mut Vec<f64>, kept: &[u32]) {
        for (t, &p) in kept.iter().enumerate() {
            col[t] = col[p as usize];
        }
        col.truncate(kept.len());
    }

    /// The column in slot `slot` (as returned by [`ColumnCache::fetch`], valid until
    /// the next fetch, shrink or reset).
    #[inline(always)]
    pub fn column(&self, slot: usize) -> &[f64] {
        &self.data[slot]
    }

    /// The slot of the column of variable `j` (filled by `fill` on a miss, `m`
    /// entries), never evicting slot `pin` (the other column of an SMO step;
    /// `usize::MAX` for none).
    #[inline(always)]
    pub fn fetch(
        &mut self,
        j: usize,
        m: usize,
        pin: usize,
        fill: impl FnOnce(&mut [f64]),
    ) -> usize {
        let s = self.slot_of[j];
        let now = self.layout;
        if s != NONE {
            let s = s as usize;
            self.referenced[s] = true;
            let from = self.layout_of[s];
            if from + 1 == now {
                Self::compact(&mut self.data[s], &self.kept);
                self.layout_of[s] = now;
            } else if from != now {
                // Two or more shrinkings behind (a warm start shrinks every 40–100
                // iterations at first): one gather costs less than the passes.
                let col = &mut self.data[s];
                col.resize(m, 0.0);
                fill(col);
                self.layout_of[s] = now;
            }
            return s;
        }
        let s = if self.owner.len() < self.max_slots {
            self.owner.push(j);
            self.data.push(vec![0.0; m]);
            self.referenced.push(true);
            self.layout_of.push(now);
            self.owner.len() - 1
        } else {
            // clock: skip (and clear) referenced slots; there are at least two slots,
            // so one besides `pin` is taken within two sweeps
            loop {
                let h = self.hand;
                self.hand = (self.hand + 1) % self.owner.len();
                if h == pin {
                    continue;
                }
                if self.referenced[h] {
                    self.referenced[h] = false;
                } else {
                    self.slot_of[self.owner[h]] = NONE;
                    self.owner[h] = j;
                    self.referenced[h] = true;
                    self.layout_of[h] = now;
                    break h;
                }
            }
        };
        self.slot_of[j] = s as u32;
        let col = &mut self.data[s];
        col.resize(m, 0.0);
        fill(col);
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Column `j` of a test matrix gathered at `rows` (the entries identify row and
    /// column, so a misplaced entry shows).
    fn gather(j: usize, rows: &[usize], out: &mut [f64]) {
        for (o, &r) in out.iter_mut().zip(rows) {
            *o = (1000 * r + j) as f64;
        }
    }

    /// Columns read through shrinkings, compacted lazily, equal fresh gathers at the
    /// current active rows; a pinned slot is never evicted (few slots force evictions).
    #[test]
    fn compacted_columns_equal_fresh_gathers() {
        let mut next = crate::test_uniform(0x9e37_79b9_7f4a_7c15);
        let n = 60;
        for slots in [2usize, 3, 7, 60] {
            let mut cache = ColumnCache::new(n);
            let mut active: Vec<usize> = (0..n).collect();
            cache.reset(&active);
            cache.max_slots = slots;
            for _round in 0..6 {
                for _ in 0..40 {
                    let m = active.len();
                    let (a, b) = (
                        active[(next() * m as f64) as usize % m],
                        active[(next() * m as f64) as usize % m],
                    );
                    let sa = cache.fetch(a, m, usize::MAX, |buf| gather(a, &active, buf));
                    let sb = cache.fetch(b, m, sa, |buf| gather(b, &active, buf));
                    let mut want = vec![0.0; m];
                    for (j, s) in [(a, sa), (b, sb)] {
                        gather(j, &active, &mut want);
                        assert_eq!(&cache.column(s)[..m], &want[..], "column {j}");
                    }
                }
                // shrink: drop about a third of the active variables
                let keep: Vec<usize> = active.iter().copied().filter(|_| next() > 0.33).collect();
                if keep.len() < 2 {
                    break;
                }
                active = keep;
                cache.shrink_to(&active);
            }
        }
    }
}
