//! Slimmer SVG: plotters writes one element per line with every attribute
//! spelled out (`opacity="1"` on each, one `<line>` per grid line, one
//! `<circle>` per point). [`slim`] rewrites that output into the same
//! picture in about a third of the bytes, so that index.html, which inlines
//! every chart, stays small:
//!
//! * runs of `<line>`s and of unfilled `<polyline>`s with the same stroke
//!   and opacity become one `<path>` of subpaths (`M x y V y`, `M x,y x,y …`);
//! * runs of filled, unstroked `<circle>`s of one colour and radius become
//!   one `<path>` of zero-length subpaths with round caps as wide as the
//!   circle (SVG 1.1 §11.4: a zero-length subpath with `stroke-linecap:
//!   round` paints a disc of the stroke's width);
//! * runs of other `<circle>`s with the same look share one `<g>` that
//!   carries it, each circle keeping only its centre and radius;
//! * `opacity="1"` (the default) is dropped everywhere, and font sizes are
//!   rounded to 0.01 px.
//!
//! Only consecutive elements merge, so painting order is kept. Inside one
//! path, overlapping segments are painted once: the same at opacity 1; at
//! the minor grid's opacity 0.2, a grid line plotters draws twice comes out
//! as light as its neighbours.

/// The attributes of a one-line, self-closing element `<tag a="v" …/>`.
fn element(line: &str) -> Option<(&str, Vec<(&str, &str)>)> {
    let inner = line.strip_prefix('<')?.strip_suffix("/>")?;
    let (tag, mut rest) = inner.split_once(' ')?;
    let mut attrs = Vec::new();
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            return Some((tag, attrs));
        }
        let (name, after) = rest.split_once("=\"")?;
        let (value, after) = after.split_once('"')?;
        attrs.push((name, value));
        rest = after;
    }
}

fn get<'a>(attrs: &[(&str, &'a str)], name: &str) -> Option<&'a str> {
    attrs.iter().find(|(n, _)| *n == name).map(|(_, v)| *v)
}

/// How a run of merged elements is written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Run {
    /// `<path HEAD d="…"/>`: the parts are subpaths.
    Path,
    /// `<g HEAD>…</g>`: the parts are elements.
    Group,
}

/// A mergeable element: how its run is written, the attributes the run
/// shares, and its own part.
fn mergeable(line: &str) -> Option<(Run, String, String)> {
    let (tag, a) = element(line)?;
    let opacity = match get(&a, "opacity") {
        None | Some("1") => String::new(),
        Some(o) => format!(" opacity=\"{o}\""),
    };
    let path = |head: String, d: String| Some((Run::Path, head + &opacity, d));
    match tag {
        "line" => {
            let (stroke, width) = (get(&a, "stroke")?, get(&a, "stroke-width")?);
            let [x1, y1, x2, y2] = ["x1", "y1", "x2", "y2"].map(|n| get(&a, n));
            let (x1, y1, x2, y2) = (x1?, y1?, x2?, y2?);
            let to = if x1 == x2 {
                format!("V{y2}")
            } else if y1 == y2 {
                format!("H{x2}")
            } else {
                format!("L{x2} {y2}")
            };
            path(
                format!("fill=\"none\" stroke=\"{stroke}\" stroke-width=\"{width}\""),
                format!("M{x1} {y1}{to}"),
            )
        }
        "polyline" if get(&a, "fill") == Some("none") => {
            let (stroke, width) = (get(&a, "stroke")?, get(&a, "stroke-width")?);
            let points = get(&a, "points")?.trim();
            if points.is_empty() {
                return None;
            }
            path(
                format!("fill=\"none\" stroke=\"{stroke}\" stroke-width=\"{width}\""),
                format!("M{points}"),
            )
        }
        "circle" if get(&a, "stroke") == Some("none") => {
            let (fill, r) = (get(&a, "fill")?, get(&a, "r")?.parse::<f64>().ok()?);
            if fill == "none" {
                return None;
            }
            let (cx, cy) = (get(&a, "cx")?, get(&a, "cy")?);
            path(
                format!(
                    "fill=\"none\" stroke=\"{fill}\" stroke-width=\"{}\" stroke-linecap=\"round\"",
                    2.0 * r
                ),
                format!("M{cx} {cy}h0"),
            )
        }
        "circle" => {
            let own = ["cx", "cy", "r"];
            let part = own
                .iter()
                .map(|n| Some(format!(" {n}=\"{}\"", get(&a, n)?)))
                .collect::<Option<String>>()?;
            let head: String = a
                .iter()
                .filter(|(n, _)| !own.contains(n) && *n != "opacity")
                .map(|(n, v)| format!(" {n}=\"{v}\""))
                .collect();
            Some((
                Run::Group,
                head.trim_start().to_string() + &opacity,
                format!("<circle{part}/>"),
            ))
        }
        _ => None,
    }
}

/// `font-size="17.741935483870968"` → `font-size="17.74"`.
fn round_font_size(line: &str) -> String {
    const KEY: &str = "font-size=\"";
    let Some(at) = line.find(KEY) else {
        return line.to_string();
    };
    let start = at + KEY.len();
    let Some(len) = line[start..].find('"') else {
        return line.to_string();
    };
    match line[start..start + len].parse::<f64>() {
        Ok(v) => {
            let r = format!("{:.2}", v);
            let r = r.trim_end_matches('0').trim_end_matches('.');
            format!("{}{r}{}", &line[..start], &line[start + len..])
        }
        Err(_) => line.to_string(),
    }
}

/// The same picture in fewer bytes (see the module doc).
pub fn slim(svg: &str) -> String {
    let mut out = String::with_capacity(svg.len() / 2);
    let mut run: Option<(Run, String, String)> = None;
    let flush = |out: &mut String, run: &mut Option<(Run, String, String)>| match run.take() {
        Some((Run::Path, head, d)) => out.push_str(&format!("<path {head} d=\"{d}\"/>\n")),
        Some((Run::Group, head, parts)) => out.push_str(&format!("<g {head}>{parts}</g>\n")),
        None => {}
    };
    for line in svg.lines() {
        match mergeable(line) {
            Some((kind, head, part)) => match &mut run {
                Some((k, h, parts)) if *k == kind && *h == head => parts.push_str(&part),
                _ => {
                    flush(&mut out, &mut run);
                    run = Some((kind, head, part));
                }
            },
            None => {
                flush(&mut out, &mut run);
                out.push_str(&round_font_size(&line.replace(" opacity=\"1\"", "")));
                out.push('\n');
            }
        }
    }
    flush(&mut out, &mut run);
    out
}

#[cfg(test)]
mod tests {
    use super::slim;

    #[test]
    fn runs_merge_and_the_rest_is_kept() {
        let svg = r##"<svg width="960" height="600" viewBox="0 0 960 600" xmlns="http://www.w3.org/2000/svg">
<rect x="0" y="0" width="960" height="600" opacity="1" fill="#FFFFFF" stroke="none"/>
<line opacity="1" stroke="#EBEBEB" stroke-width="1" x1="187" y1="539" x2="187" y2="39"/>
<line opacity="1" stroke="#EBEBEB" stroke-width="1" x1="92" y1="414" x2="947" y2="414"/>
<line opacity="1" stroke="#000000" stroke-width="1" x1="1" y1="2" x2="3" y2="4"/>
<circle cx="126" cy="106" r="4" opacity="1" fill="#2CA02C" stroke="none" stroke-width="1"/>
<circle cx="178" cy="130" r="4" opacity="1" fill="#2CA02C" stroke="none" stroke-width="1"/>
<circle cx="130" cy="208" r="3" opacity="1" fill="none" stroke="#1F77B4" stroke-width="1"/>
<circle cx="131" cy="209" r="3" opacity="1" fill="none" stroke="#1F77B4" stroke-width="1"/>
<polyline fill="none" opacity="1" stroke="#000000" stroke-width="1" points="91,39 91,539 "/>
<polyline fill="none" opacity="1" stroke="#000000" stroke-width="1" points="86,414 91,414 "/>
<rect x="780" y="44" width="163" height="160" opacity="0.85" fill="#FFFFFF" stroke="none"/>
<line opacity="0.2" stroke="#000000" stroke-width="1" x1="1" y1="2" x2="3" y2="4"/>
<line opacity="0.2" stroke="#000000" stroke-width="1" x1="5" y1="2" x2="5" y2="4"/>
<text x="480" y="17" dy="0.76em" text-anchor="middle" font-family="sans-serif" font-size="17.741935483870968" opacity="1" fill="#000000">
a &lt; b
</text>
<text x="1" y="1" font-size="12" fill="#000000">
c
</text>
</svg>
"##;
        let want = r##"<svg width="960" height="600" viewBox="0 0 960 600" xmlns="http://www.w3.org/2000/svg">
<rect x="0" y="0" width="960" height="600" fill="#FFFFFF" stroke="none"/>
<path fill="none" stroke="#EBEBEB" stroke-width="1" d="M187 539V39M92 414H947"/>
<path fill="none" stroke="#000000" stroke-width="1" d="M1 2L3 4"/>
<path fill="none" stroke="#2CA02C" stroke-width="8" stroke-linecap="round" d="M126 106h0M178 130h0"/>
<g fill="none" stroke="#1F77B4" stroke-width="1"><circle cx="130" cy="208" r="3"/><circle cx="131" cy="209" r="3"/></g>
<path fill="none" stroke="#000000" stroke-width="1" d="M91,39 91,539M86,414 91,414"/>
<rect x="780" y="44" width="163" height="160" opacity="0.85" fill="#FFFFFF" stroke="none"/>
<path fill="none" stroke="#000000" stroke-width="1" opacity="0.2" d="M1 2L3 4M5 2V4"/>
<text x="480" y="17" dy="0.76em" text-anchor="middle" font-family="sans-serif" font-size="17.74" fill="#000000">
a &lt; b
</text>
<text x="1" y="1" font-size="12" fill="#000000">
c
</text>
</svg>
"##;
        assert_eq!(slim(svg), want);
    }
}
