//! A minimal JSON writer for the core module: serde's derived `Serialize` impls of the core types, written as
//! JSON text without serde_json and without Rust's float formatting (both are most of a module's size).
//!
//! Integers are written digit by digit. A float that is a whole number below 2^53 is written as an integer (the
//! same number once JavaScript parses it); any other float is appended to a side table and written as the
//! placeholder object `{"\u0000": index}`, which the JavaScript wrapper replaces with `takeFloats()[index]` (no
//! output of this module has a key that is a NUL character, so the placeholder cannot be mistaken).

use serde::ser::{self, Serialize};
use std::cell::RefCell;

thread_local! {
    static FLOATS: RefCell<Vec<f64>> = const { RefCell::new(Vec::new()) };
}

/// The floats of the last result, in placeholder order (emptied by the call).
pub fn take_floats() -> Vec<f64> {
    FLOATS.with(|f| std::mem::take(&mut *f.borrow_mut()))
}

/// Why a value could not be written (never happens for the core's types).
#[derive(Debug)]
pub struct Error(String);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

impl ser::Error for Error {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        Error(msg.to_string())
    }
}

/// `v` as JSON text.
pub fn to_string<T: Serialize + ?Sized>(v: &T) -> Result<String, Error> {
    FLOATS.with(|f| f.borrow_mut().clear());
    let mut w = Writer { out: String::new() };
    v.serialize(&mut w)?;
    Ok(w.out)
}

struct Writer {
    out: String,
}

impl Writer {
    fn u64(&mut self, mut n: u64) {
        let mut buf = [0u8; 20];
        let mut i = buf.len();
        loop {
            i -= 1;
            buf[i] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        for &b in &buf[i..] {
            self.out.push(b as char);
        }
    }

    fn i64(&mut self, n: i64) {
        if n < 0 {
            self.out.push('-');
        }
        self.u64(n.unsigned_abs());
    }

    fn str(&mut self, s: &str) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        self.out.push('"');
        for c in s.chars() {
            match c {
                '"' => self.out.push_str("\\\""),
                '\\' => self.out.push_str("\\\\"),
                '\n' => self.out.push_str("\\n"),
                '\r' => self.out.push_str("\\r"),
                '\t' => self.out.push_str("\\t"),
                c if (c as u32) < 0x20 => {
                    self.out.push_str("\\u00");
                    self.out.push(HEX[(c as usize) >> 4] as char);
                    self.out.push(HEX[(c as usize) & 15] as char);
                }
                c => self.out.push(c),
            }
        }
        self.out.push('"');
    }

    fn f64(&mut self, x: f64) {
        if !x.is_finite() {
            self.out.push_str("null");
        } else if x.fract() == 0.0 && x.abs() < 9_007_199_254_740_992.0 {
            self.i64(x as i64);
        } else {
            let i = FLOATS.with(|f| {
                let mut f = f.borrow_mut();
                f.push(x);
                f.len() - 1
            });
            self.out.push_str("{\"\\u0000\":");
            self.u64(i as u64);
            self.out.push('}');
        }
    }
}

/// A sequence, map or struct being written: whether a comma is due, and what closes it.
pub struct Compound<'a> {
    w: &'a mut Writer,
    first: bool,
    close: &'static str,
}

impl Compound<'_> {
    fn comma(&mut self) {
        if !self.first {
            self.w.out.push(',');
        }
        self.first = false;
    }

    fn key(&mut self, k: &str) {
        self.comma();
        self.w.str(k);
        self.w.out.push(':');
    }
}

type R = Result<(), Error>;

impl<'a> ser::Serializer for &'a mut Writer {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a>;
    type SerializeTuple = Compound<'a>;
    type SerializeTupleStruct = Compound<'a>;
    type SerializeTupleVariant = Compound<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    fn serialize_bool(self, v: bool) -> R {
        self.out.push_str(if v { "true" } else { "false" });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> R {
        self.i64(v.into());
        Ok(())
    }
    fn serialize_i16(self, v: i16) -> R {
        self.i64(v.into());
        Ok(())
    }
    fn serialize_i32(self, v: i32) -> R {
        self.i64(v.into());
        Ok(())
    }
    fn serialize_i64(self, v: i64) -> R {
        self.i64(v);
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> R {
        self.u64(v.into());
        Ok(())
    }
    fn serialize_u16(self, v: u16) -> R {
        self.u64(v.into());
        Ok(())
    }
    fn serialize_u32(self, v: u32) -> R {
        self.u64(v.into());
        Ok(())
    }
    fn serialize_u64(self, v: u64) -> R {
        self.u64(v);
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> R {
        self.f64(v.into());
        Ok(())
    }
    fn serialize_f64(self, v: f64) -> R {
        self.f64(v);
        Ok(())
    }
    fn serialize_char(self, v: char) -> R {
        let mut b = [0u8; 4];
        self.str(v.encode_utf8(&mut b));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> R {
        self.str(v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> R {
        use ser::SerializeSeq;
        let mut s = self.serialize_seq(Some(v.len()))?;
        for b in v {
            s.serialize_element(b)?;
        }
        s.end()
    }
    fn serialize_none(self) -> R {
        self.out.push_str("null");
        Ok(())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> R {
        v.serialize(self)
    }
    fn serialize_unit(self) -> R {
        self.serialize_none()
    }
    fn serialize_unit_struct(self, _: &'static str) -> R {
        self.serialize_none()
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> R {
        self.str(variant);
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, v: &T) -> R {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        v: &T,
    ) -> R {
        self.out.push('{');
        self.str(variant);
        self.out.push(':');
        v.serialize(&mut *self)?;
        self.out.push('}');
        Ok(())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'a>, Error> {
        self.out.push('[');
        Ok(Compound {
            w: self,
            first: true,
            close: "]",
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Compound<'a>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'a>, Error> {
        self.out.push('{');
        self.str(variant);
        self.out.push_str(":[");
        Ok(Compound {
            w: self,
            first: true,
            close: "]}",
        })
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'a>, Error> {
        self.out.push('{');
        Ok(Compound {
            w: self,
            first: true,
            close: "}",
        })
    }
    fn serialize_struct(self, _: &'static str, len: usize) -> Result<Compound<'a>, Error> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'a>, Error> {
        self.out.push('{');
        self.str(variant);
        self.out.push_str(":{");
        Ok(Compound {
            w: self,
            first: true,
            close: "}}",
        })
    }
}

impl ser::SerializeSeq for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> R {
        self.comma();
        v.serialize(&mut *self.w)
    }
    fn end(self) -> R {
        self.w.out.push_str(self.close);
        Ok(())
    }
}

impl ser::SerializeTuple for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, v: &T) -> R {
        ser::SerializeSeq::serialize_element(self, v)
    }
    fn end(self) -> R {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleStruct for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> R {
        ser::SerializeSeq::serialize_element(self, v)
    }
    fn end(self) -> R {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleVariant for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, v: &T) -> R {
        ser::SerializeSeq::serialize_element(self, v)
    }
    fn end(self) -> R {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, k: &T) -> R {
        self.comma();
        // Keys are strings (struct fields, flattened maps); anything else is written as it serializes.
        k.serialize(&mut *self.w)?;
        self.w.out.push(':');
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> R {
        v.serialize(&mut *self.w)
    }
    fn end(self) -> R {
        self.w.out.push_str(self.close);
        Ok(())
    }
}

impl ser::SerializeStruct for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, k: &'static str, v: &T) -> R {
        self.key(k);
        v.serialize(&mut *self.w)
    }
    fn end(self) -> R {
        self.w.out.push_str(self.close);
        Ok(())
    }
}

impl ser::SerializeStructVariant for Compound<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, k: &'static str, v: &T) -> R {
        ser::SerializeStruct::serialize_field(self, k, v)
    }
    fn end(self) -> R {
        ser::SerializeStruct::end(self)
    }
}
