//! Which of a table's row parameters (`[tables.ID.row_params]`) reach which column, and
//! under which parameter name.
//!
//! A column without `row_params` takes every row parameter under its own name, and each
//! must be a parameter of the column's method: a row parameter is never dropped
//! silently. A column with `row_params = { key = "name", … }` takes exactly the listed
//! row keys, each as its method's parameter `name` (`{}`: none). Every row key must be
//! taken by at least one column with a method.

use super::schema::ColumnCfg;
use super::table::TableCtx;
use crate::methods::Method;
use crate::params::ParamValue;
use mkc_core::Result;

/// Per row with parameters for this column: the (method parameter, value) pairs.
pub(super) type RowParams = Vec<(String, Vec<(String, ParamValue)>)>;

impl TableCtx<'_> {
    /// The row parameters column `c` (at config key `ck`) takes, renamed to its method's
    /// parameters; errors name the row, the key and the method.
    pub(super) fn column_row_params(
        &self,
        method: &dyn Method,
        ck: &str,
        c: &ColumnCfg,
    ) -> Result<RowParams> {
        let specs = method.params();
        let declared = |k: &str| specs.iter().any(|sp| sp.name == k);
        let mname = method.name();
        if let Some(map) = &c.row_params {
            for (rk, name) in map {
                if !declared(name) {
                    return Err(self.err(
                        format!("{ck}.row_params.{rk}"),
                        format!("`{name}` is not a parameter of method `{mname}`"),
                    ));
                }
                if !self.t.row_params.values().any(|over| over.contains_key(rk)) {
                    return Err(self.err(
                        format!("{ck}.row_params.{rk}"),
                        format!("no row of `{}.row_params` sets `{rk}`", self.base),
                    ));
                }
            }
        }
        let mut out = Vec::new();
        for (row, over) in &self.t.row_params {
            let mut own = Vec::new();
            for (k, v) in over {
                let name = match &c.row_params {
                    Some(map) => match map.get(k) {
                        Some(name) => name.clone(),
                        None => continue,
                    },
                    None if declared(k) => k.clone(),
                    None => {
                        return Err(self.err(
                            format!("{}.row_params.{row}.{k}", self.base),
                            format!(
                                "row `{row}`: `{k}` is not a parameter of method `{mname}` \
                                 (column `{}`); give the column `row_params` to say which row \
                                 parameters it takes (`{{}}` for none, `{{ {k} = \"NAME\" }}` \
                                 to pass it as the method's NAME)",
                                c.id
                            ),
                        ))
                    }
                };
                own.push((name, v.clone()));
            }
            if !own.is_empty() {
                out.push((row.clone(), own));
            }
        }
        Ok(out)
    }

    /// Every row key is taken by some column with a method (profiles may skip that
    /// column; the check is on the table as written).
    pub(super) fn check_row_keys_taken(&self) -> Result<()> {
        for (row, over) in &self.t.row_params {
            for k in over.keys() {
                let taken = self.t.columns.iter().any(|c| {
                    c.method.is_some() && c.row_params.as_ref().is_none_or(|m| m.contains_key(k))
                });
                if !taken {
                    return Err(self.err(
                        format!("{}.row_params.{row}.{k}", self.base),
                        format!("row `{row}`: no column of the table takes `{k}`"),
                    ));
                }
            }
        }
        Ok(())
    }
}
