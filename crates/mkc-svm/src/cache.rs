//! A cache of `Q` columns restricted to the active (unshrunk) set, stored compactly in
//! active-position order — the role of libsvm's kernel cache. The kernel itself is in
//! memory, so a cache miss is cheap to fill, but reading a column gathered at the active
//! rows touches every cache line of the full column; after shrinking, the compact copies
//! cut the memory traffic per iteration from O(n) to O(#active).
//!
//! Only used while some variables are shrunk; dropped whenever the active set changes
//! (see `shrinking::shrink` for why it is not compacted). Eviction by the clock (second chance)
//! rule; the budget is [`CACHE_BYTES`].

/// Memory budget of the column cache (libsvm's default is 200 MB of floats).
pub(crate) const CACHE_BYTES: usize = 256 << 20;

const NONE: u32 = u32::MAX;

pub(crate) struct ColumnCache {
    slot_of: Vec<u32>,
    owner: Vec<usize>,
    data: Vec<Vec<f64>>,
    referenced: Vec<bool>,
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
            hand: 0,
            max_slots: 2,
        }
    }

    /// Drop every column; columns will have `m` entries from now on.
    pub fn reset(&mut self, m: usize) {
        for &j in &self.owner {
            self.slot_of[j] = NONE;
        }
        self.owner.clear();
        self.data.clear();
        self.referenced.clear();
        self.hand = 0;
        self.max_slots = (CACHE_BYTES / (8 * m.max(1))).clamp(2, self.slot_of.len().max(2));
    }

    /// The column of variable `j` (filled by `fill` on a miss, `m` entries).
    #[inline(always)]
    pub fn get(&mut self, j: usize, m: usize, fill: impl FnOnce(&mut [f64])) -> &[f64] {
        let s = self.slot_of[j];
        if s != NONE {
            let s = s as usize;
            self.referenced[s] = true;
            return &self.data[s];
        }
        let s = if self.owner.len() < self.max_slots {
            self.owner.push(j);
            self.data.push(vec![0.0; m]);
            self.referenced.push(true);
            self.owner.len() - 1
        } else {
            // clock: skip (and clear) referenced slots
            loop {
                let h = self.hand;
                self.hand = (self.hand + 1) % self.owner.len();
                if self.referenced[h] {
                    self.referenced[h] = false;
                } else {
                    self.slot_of[self.owner[h]] = NONE;
                    self.owner[h] = j;
                    self.referenced[h] = true;
                    break h;
                }
            }
        };
        self.slot_of[j] = s as u32;
        let col = &mut self.data[s];
        col.resize(m, 0.0);
        fill(col);
        &self.data[s]
    }
}
