//! Values reported by the papers, typed into the configs as `73.22`, `"73.22 ± 2.90"`
//! or `"73.22±2.90"` (the paper's own precision is kept for display).

use serde::{Deserialize, Deserializer};

/// One reported value: mean, optional deviation, and the text as the paper prints it.
#[derive(Debug, Clone, PartialEq)]
pub struct PaperValue {
    /// The reported mean.
    pub mean: f64,
    /// The reported deviation, if any.
    pub std: Option<f64>,
    /// The text shown in the tables.
    pub text: String,
}

impl PaperValue {
    /// Parse `"73.22"`, `"73.22 ± 2.90"`, `"73.22±2.9"` or `"73.22 +- 2.90"`.
    pub fn parse(s: &str) -> Result<Self, String> {
        let t = s.trim();
        let (m, d) = match t.split_once('±').or_else(|| t.split_once("+-")) {
            Some((m, d)) => (m.trim(), Some(d.trim())),
            None => (t, None),
        };
        let num = |x: &str| -> Result<f64, String> {
            x.parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| format!("`{s}` is not a number or \"mean ± std\""))
        };
        let mean = num(m)?;
        let std = d.map(num).transpose()?;
        if std.is_some_and(|v| v < 0.0) {
            return Err(format!("`{s}`: negative deviation"));
        }
        let text = match std {
            Some(_) => format!("{} ± {}", m, d.unwrap_or_default()),
            None => m.to_string(),
        };
        Ok(PaperValue { mean, std, text })
    }
}

impl<'de> Deserialize<'de> for PaperValue {
    fn deserialize<D: Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Int(i64),
            Num(f64),
            Text(String),
        }
        match Raw::deserialize(de)? {
            Raw::Int(v) => Ok(PaperValue {
                mean: v as f64,
                std: None,
                text: v.to_string(),
            }),
            Raw::Num(v) if v.is_finite() => Ok(PaperValue {
                mean: v,
                std: None,
                text: format!("{v}"),
            }),
            Raw::Num(v) => Err(serde::de::Error::custom(format!(
                "paper value {v} is not finite"
            ))),
            Raw::Text(s) => PaperValue::parse(&s).map_err(serde::de::Error::custom),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_papers_forms() {
        let v = PaperValue::parse("73.22 ± 2.90").unwrap();
        assert_eq!(
            (v.mean, v.std, v.text.as_str()),
            (73.22, Some(2.9), "73.22 ± 2.90")
        );
        let v = PaperValue::parse("88.8±0.1").unwrap();
        assert_eq!(
            (v.mean, v.std, v.text.as_str()),
            (88.8, Some(0.1), "88.8 ± 0.1")
        );
        assert_eq!(PaperValue::parse("94.0").unwrap().std, None);
        assert!(PaperValue::parse("abc").is_err());
        assert!(PaperValue::parse("1 ± x").is_err());
        assert!(PaperValue::parse("1 ± -2").is_err());
    }
}
