//! Arithmetic over a row's columns, for a series' y (`"hit_rate * per"`,
//! `"-2 * se_theory"`, `"abs(err_q50)"`, `"max(compares, 0.001)"`):
//! numbers, column names, `+ - * /`, parentheses and the functions
//! `abs`, `sqrt`, `ln`, `log2`, `log10`, `min`, `max`, and `lead(column)`,
//! the number a text cell starts with (`"16-32"` → 16, a bin's lower edge).

use crate::error::Error;
use crate::table::{Table, Value};

#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    Num(f64),
    Col(String),
    Neg(Box<Expr>),
    Bin(char, Box<Expr>, Box<Expr>),
    Call(String, Vec<Expr>),
}

const FUNCTIONS: &[(&str, usize)] = &[
    ("abs", 1),
    ("sqrt", 1),
    ("ln", 1),
    ("log2", 1),
    ("log10", 1),
    ("min", 2),
    ("max", 2),
    ("lead", 1),
];

impl Expr {
    /// Parses an expression; the message says where it stops making sense.
    pub fn parse(text: &str) -> crate::error::Result<Expr> {
        let toks = tokens(text)?;
        let mut p = Parser { toks, at: 0 };
        let e = p.sum()?;
        match p.toks.get(p.at) {
            None => Ok(e),
            Some(t) => Err(Error::input(format!("unexpected {t:?} in {text:?}"))),
        }
    }

    /// The one column, when the expression is just a column name.
    pub fn column(&self) -> Option<&str> {
        match self {
            Expr::Col(c) => Some(c),
            _ => None,
        }
    }

    /// Every column the expression reads.
    pub fn columns(&self) -> Vec<&str> {
        match self {
            Expr::Num(_) => Vec::new(),
            Expr::Col(c) => vec![c],
            Expr::Neg(e) => e.columns(),
            Expr::Bin(_, a, b) => [a.columns(), b.columns()].concat(),
            Expr::Call(_, args) => args.iter().flat_map(|a| a.columns()).collect(),
        }
    }

    /// The columns read as text (`lead`'s), which need not be numeric.
    pub fn text_columns(&self) -> Vec<&str> {
        match self {
            Expr::Num(_) | Expr::Col(_) => Vec::new(),
            Expr::Neg(e) => e.text_columns(),
            Expr::Bin(_, a, b) => [a.text_columns(), b.text_columns()].concat(),
            Expr::Call(f, args) if f == "lead" => args.iter().flat_map(|a| a.columns()).collect(),
            Expr::Call(_, args) => args.iter().flat_map(|a| a.text_columns()).collect(),
        }
    }

    /// The value on `row` (`None` when a cell is empty or text).
    pub fn eval(&self, t: &Table, row: &[Value]) -> Option<f64> {
        self.eval_with(t, row, None)
    }

    /// The value on `row` with one column held at `value` instead of the
    /// row's cell (a swept variable).
    pub fn eval_at(&self, t: &Table, row: &[Value], column: &str, value: f64) -> Option<f64> {
        self.eval_with(t, row, Some((column, value)))
    }

    fn eval_with(&self, t: &Table, row: &[Value], bound: Option<(&str, f64)>) -> Option<f64> {
        Some(match self {
            Expr::Num(x) => *x,
            Expr::Col(c) => match bound {
                Some((name, v)) if name == c => v,
                _ => t.f64(row, c)?,
            },
            Expr::Neg(e) => -e.eval_with(t, row, bound)?,
            Expr::Call(f, args) if f == "lead" => {
                let text = t.str(row, args.first()?.column()?);
                let end = text
                    .char_indices()
                    .find(|&(i, c)| !(c.is_ascii_digit() || c == '.' || (i == 0 && c == '-')))
                    .map_or(text.len(), |(i, _)| i);
                text[..end].parse().ok()?
            }
            Expr::Bin(op, a, b) => {
                let (a, b) = (a.eval_with(t, row, bound)?, b.eval_with(t, row, bound)?);
                match op {
                    '+' => a + b,
                    '-' => a - b,
                    '*' => a * b,
                    _ => a / b,
                }
            }
            Expr::Call(f, args) => {
                let v: Vec<f64> = args
                    .iter()
                    .map(|a| a.eval_with(t, row, bound))
                    .collect::<Option<_>>()?;
                match (f.as_str(), v.as_slice()) {
                    ("abs", [x]) => x.abs(),
                    ("sqrt", [x]) => x.sqrt(),
                    ("ln", [x]) => x.ln(),
                    ("log2", [x]) => x.log2(),
                    ("log10", [x]) => x.log10(),
                    ("min", [a, b]) => a.min(*b),
                    ("max", [a, b]) => a.max(*b),
                    _ => return None,
                }
            }
        })
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Num(f64),
    Name(String),
    Op(char),
}

fn tokens(text: &str) -> crate::error::Result<Vec<Tok>> {
    let mut out = Vec::new();
    let cs: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        if c.is_whitespace() {
            i += 1;
        } else if "+-*/(),".contains(c) {
            out.push(Tok::Op(c));
            i += 1;
        } else if c.is_ascii_digit() || c == '.' {
            let start = i;
            while i < cs.len()
                && (cs[i].is_ascii_digit()
                    || cs[i] == '.'
                    || cs[i] == 'e'
                    || ((cs[i] == '-' || cs[i] == '+') && cs[i - 1] == 'e'))
            {
                i += 1;
            }
            let s: String = cs[start..i].iter().collect();
            out.push(Tok::Num(
                s.parse()
                    .map_err(|_| Error::input(format!("{s:?} is not a number")))?,
            ));
        } else if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < cs.len() && (cs[i].is_ascii_alphanumeric() || cs[i] == '_') {
                i += 1;
            }
            out.push(Tok::Name(cs[start..i].iter().collect()));
        } else {
            return Err(Error::input(format!("unexpected {c:?} in {text:?}")));
        }
    }
    Ok(out)
}

struct Parser {
    toks: Vec<Tok>,
    at: usize,
}

impl Parser {
    fn peek_op(&self, ops: &str) -> Option<char> {
        match self.toks.get(self.at) {
            Some(Tok::Op(c)) if ops.contains(*c) => Some(*c),
            _ => None,
        }
    }

    fn sum(&mut self) -> crate::error::Result<Expr> {
        let mut e = self.product()?;
        while let Some(op) = self.peek_op("+-") {
            self.at += 1;
            e = Expr::Bin(op, Box::new(e), Box::new(self.product()?));
        }
        Ok(e)
    }

    fn product(&mut self) -> crate::error::Result<Expr> {
        let mut e = self.factor()?;
        while let Some(op) = self.peek_op("*/") {
            self.at += 1;
            e = Expr::Bin(op, Box::new(e), Box::new(self.factor()?));
        }
        Ok(e)
    }

    fn expect(&mut self, c: char) -> crate::error::Result<()> {
        if self.peek_op(&c.to_string()).is_some() {
            self.at += 1;
            Ok(())
        } else {
            Err(Error::input(format!("expected {c:?}")))
        }
    }

    fn factor(&mut self) -> crate::error::Result<Expr> {
        let t = self.toks.get(self.at).cloned();
        self.at += 1;
        match t {
            Some(Tok::Num(x)) => Ok(Expr::Num(x)),
            Some(Tok::Op('-')) => Ok(Expr::Neg(Box::new(self.factor()?))),
            Some(Tok::Op('(')) => {
                let e = self.sum()?;
                self.expect(')')?;
                Ok(e)
            }
            Some(Tok::Name(n)) if self.peek_op("(").is_some() => {
                let Some(&(_, arity)) = FUNCTIONS.iter().find(|(f, _)| *f == n) else {
                    return Err(Error::input(format!(
                        "unknown function {n:?} (known: {})",
                        FUNCTIONS.iter().map(|f| f.0).collect::<Vec<_>>().join(", ")
                    )));
                };
                self.at += 1;
                let mut args = vec![self.sum()?];
                while self.peek_op(",").is_some() {
                    self.at += 1;
                    args.push(self.sum()?);
                }
                self.expect(')')?;
                if args.len() != arity {
                    return Err(Error::input(format!("{n} takes {arity} argument(s)")));
                }
                if n == "lead" && args[0].column().is_none() {
                    return Err(Error::input("lead reads one column's text: lead(column)"));
                }
                Ok(Expr::Call(n, args))
            }
            Some(Tok::Name(n)) => Ok(Expr::Col(n)),
            Some(t) => Err(Error::input(format!("unexpected {t:?}"))),
            None => Err(Error::input("the expression ends too early")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::{ColType, Column};

    #[test]
    fn arithmetic_over_columns_with_precedence_and_functions() {
        let mut t = Table::new(vec![
            Column::new("h", ColType::Float),
            Column::new("per", ColType::Int),
        ]);
        t.rows.push(vec![Value::Float(0.25), Value::Int(1000)]);
        let r = &t.rows[0];
        let v = |s: &str| Expr::parse(s).unwrap().eval(&t, r).unwrap();
        assert_eq!(v("h * per"), 250.0);
        assert_eq!(v("-2 * h"), -0.5);
        assert_eq!(v("1 + 2 * 3"), 7.0);
        assert_eq!(v("(1 + 2) * 3"), 9.0);
        assert_eq!(v("abs(-h)"), 0.25);
        assert_eq!(v("max(h, 1e-3)"), 0.25);
        assert_eq!(v("min(h, 1.5e-1)"), 0.15);
        assert_eq!(Expr::parse("h").unwrap().column(), Some("h"));
        assert_eq!(Expr::parse("h * per").unwrap().columns(), ["h", "per"]);
        for bad in ["h *", "foo(h)", "min(h)", "h $ 2", "(h", ""] {
            assert!(Expr::parse(bad).is_err(), "{bad}");
        }
    }
}
