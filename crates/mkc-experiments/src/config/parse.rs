//! Reading a config file, with errors that name the offending key.

use super::schema::{Config, Recipe};
use mkc_core::{Error, Result};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// The built-in recipe library (`configs/recipes.toml`, compiled in).
pub const RECIPES_TOML: &str = include_str!("../../../../configs/recipes.toml");

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RecipeFile {
    #[serde(default)]
    recipes: BTreeMap<String, Recipe>,
}

/// Parse a recipes-only file (`[recipes.<name>]` tables).
pub fn parse_recipes(source_name: &str, text: &str) -> Result<BTreeMap<String, Recipe>> {
    let f: RecipeFile = from_toml(source_name, text)?;
    for (name, r) in &f.recipes {
        super::recipe_check::check_recipe(source_name, name, r)?;
    }
    Ok(f.recipes)
}

/// The built-in recipes (`configs/recipes.toml`).
pub fn recipe_library() -> Result<BTreeMap<String, Recipe>> {
    parse_recipes("configs/recipes.toml", RECIPES_TOML)
}

/// Read and parse a config file (no validation: see [`super::resolve`]).
pub fn read_config(path: &Path) -> Result<(Config, String)> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    let cfg = parse_config(&path.display().to_string(), &text)?;
    Ok((cfg, text))
}

/// Parse config text; `source_name` names the file in errors.
pub fn parse_config(source_name: &str, text: &str) -> Result<Config> {
    from_toml(source_name, text)
}

fn from_toml<T: serde::de::DeserializeOwned>(source_name: &str, text: &str) -> Result<T> {
    toml::from_str::<T>(text).map_err(|e| {
        let msg = e.message().trim().to_string();
        let (key, line) = match e.span() {
            Some(span) => key_at(text, span.start, &msg),
            None => (backticked(&msg).unwrap_or_else(|| "(file)".into()), None),
        };
        let reason = match line {
            Some(l) => format!("{msg} (line {l})"),
            None => msg,
        };
        Error::config(source_name, key, reason)
    })
}

/// First `backticked` word of a serde message (`unknown field `x``, `missing field `x``).
fn backticked(msg: &str) -> Option<String> {
    let start = msg.find('`')? + 1;
    let len = msg[start..].find('`')?;
    Some(msg[start..start + len].to_string())
}

/// The dotted key at byte offset `pos`: the enclosing `[table]` header plus the key on
/// that line (or the backticked field of the message for unknown / missing fields).
fn key_at(text: &str, pos: usize, msg: &str) -> (String, Option<usize>) {
    let pos = pos.min(text.len());
    let before = &text[..pos];
    let line_no = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[pos..].find('\n').map_or(text.len(), |i| pos + i);
    let line = text[line_start..line_end].trim();
    let mut header = String::new();
    for l in text[..line_start].lines() {
        let l = l.trim();
        if l.starts_with('[') {
            header = l.trim_matches(|c| c == '[' || c == ']').trim().to_string();
        }
    }
    let line_header = line.starts_with('[');
    if line_header {
        header = line
            .trim_matches(|c| c == '[' || c == ']')
            .trim()
            .to_string();
    }
    let field = if msg.starts_with("unknown field") || msg.starts_with("missing field") {
        backticked(msg)
    } else if !line_header {
        line.split_once('=')
            .map(|(k, _)| k.trim().trim_matches('"').to_string())
    } else {
        None
    };
    let key = match (header.is_empty(), field) {
        (true, Some(f)) => f,
        (false, Some(f)) => format!("{header}.{f}"),
        (false, None) => header,
        (true, None) => "(file)".into(),
    };
    (key, Some(line_no))
}
