//! Table-driven tests for `feed_decoder::date`: one row per input with the expected
//! UTC `struct_time` and format family, or `None` for a reject.
//!
//! The `FP` rows are feedparser 6's own test vectors (`tests/test_date_parsers.py`),
//! with the results its whole handler chain gives; the other rows' expectations were
//! computed independently with Python's `datetime`.

use feed_decoder::date::{DateFormat, parse_date, parse_date_with_format, struct_time};

type Row = (&'static str, Option<[i64; 9]>, Option<DateFormat>);

#[rustfmt::skip]
mod rows {
    use super::{DateFormat, Row};

    // Generated expectations: feedparser test vectors plus cases computed with Python's datetime.

    pub const FP: &[Row] = &[
        ("Κυρ, 11 Ιούλ 2004 12:00:00 EST", Some([2004, 7, 11, 17, 0, 0, 6, 193, 0]), Some(DateFormat::Greek)),
        ("2004-július-13T9:15-05:00", Some([2004, 7, 13, 14, 15, 0, 1, 195, 0]), Some(DateFormat::Hungarian)),
        ("-0312", Some([2003, 12, 1, 0, 0, 0, 0, 335, 0]), Some(DateFormat::Iso8601)),
        ("031231", Some([2003, 12, 31, 0, 0, 0, 2, 365, 0]), Some(DateFormat::Iso8601)),
        ("03-12-31", Some([2003, 12, 31, 0, 0, 0, 2, 365, 0]), Some(DateFormat::Iso8601)),
        ("-03-12", Some([2003, 12, 1, 0, 0, 0, 0, 335, 0]), Some(DateFormat::Iso8601)),
        ("03335", Some([2003, 12, 1, 0, 0, 0, 0, 335, 0]), Some(DateFormat::Iso8601)),
        ("2003-12-31T10:14:55.1234Z", Some([2003, 12, 31, 10, 14, 55, 2, 365, 0]), Some(DateFormat::W3cDtf)),
        ("2003-012-31T10:14:55+00:00", Some([2003, 12, 31, 10, 14, 55, 2, 365, 0]), Some(DateFormat::W3cDtf)),
        // A one-digit minute in the offset (seen in real feeds; feedparser reads it).
        ("2017-06-13T03:18:00+00:0", Some([2017, 6, 13, 3, 18, 0, 1, 164, 0]), Some(DateFormat::W3cDtf)),
        ("2017-06-13T03:18:00+05:3", Some([2017, 6, 12, 22, 15, 0, 0, 163, 0]), Some(DateFormat::W3cDtf)),
        ("2004-05-25 오후 11:23:17", Some([2004, 5, 25, 14, 23, 17, 1, 146, 0]), Some(DateFormat::KoreanNate)),
        ("2004년 05월 28일  01:31:15", Some([2004, 5, 27, 16, 31, 15, 3, 148, 0]), Some(DateFormat::KoreanOnBlog)),
        ("Fri, 2006/09/15 08:19:53 EDT", Some([2006, 9, 15, 12, 19, 53, 4, 258, 0]), Some(DateFormat::Perforce)),
        ("Thu, 30 Apr 2015 08:57:00 MET", Some([2015, 4, 30, 7, 57, 0, 3, 120, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 30 Apr 2015 08:57:00 MEST", Some([2015, 4, 30, 6, 57, 0, 3, 120, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 0100 00:00:01 +0100", Some([99, 12, 31, 23, 0, 1, 3, 365, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 04 19:48:21 GMT", Some([2004, 1, 1, 19, 48, 21, 3, 1, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 2004 19:48:21 GMT", Some([2004, 1, 1, 19, 48, 21, 3, 1, 0]), Some(DateFormat::Rfc822)),
        ("Thu,  5 Apr 2012 10:00:00 GMT", Some([2012, 4, 5, 10, 0, 0, 3, 96, 0]), Some(DateFormat::Rfc822)),
        ("Wed, 19 Aug 2009 18:28:00 Etc/GMT", Some([2009, 8, 19, 18, 28, 0, 2, 231, 0]), Some(DateFormat::Rfc822)),
        ("Wed, 19 Feb 2012 22:40:00 GMT-01:01", Some([2012, 2, 19, 23, 41, 0, 6, 50, 0]), Some(DateFormat::Rfc822)),
        ("Wed, 19 Feb 2012 22:40:00 -01:01", Some([2012, 2, 19, 23, 41, 0, 6, 50, 0]), Some(DateFormat::Rfc822)),
        ("Mon, 13 Feb, 2012 06:28:00 UTC", Some([2012, 2, 13, 6, 28, 0, 0, 44, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 2004 00:00 GMT", Some([2004, 1, 1, 0, 0, 0, 3, 1, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 2004", Some([2004, 1, 1, 0, 0, 0, 3, 1, 0]), Some(DateFormat::Rfc822)),
        ("Mon, 26 January 2004 16:31:00 AT", Some([2004, 1, 26, 20, 31, 0, 0, 26, 0]), Some(DateFormat::Rfc822)),
        ("Mon, 26 January 2004 16:31:00 ET", Some([2004, 1, 26, 21, 31, 0, 0, 26, 0]), Some(DateFormat::Rfc822)),
        ("Mon, 26 January 2004 16:31:00 CT", Some([2004, 1, 26, 22, 31, 0, 0, 26, 0]), Some(DateFormat::Rfc822)),
        ("Mon, 26 January 2004 16:31:00 MT", Some([2004, 1, 26, 23, 31, 0, 0, 26, 0]), Some(DateFormat::Rfc822)),
        ("Mon, 26 January 2004 16:31:00 PT", Some([2004, 1, 27, 0, 31, 0, 1, 27, 0]), Some(DateFormat::Rfc822)),
        ("Thu Aug 30 2012 17:26:16 +0200", Some([2012, 8, 30, 15, 26, 16, 3, 243, 0]), Some(DateFormat::Rfc822)),
        ("Sun, 16 Dec 2012 1:2:3:4 GMT", None, None),
        ("Sun, 16 zzz 2012 11:47:32 GMT", None, None),
        ("Sun, Dec x 2012 11:47:32 GMT", None, None),
        ("Sun, 16 Dec zz 11:47:32 GMT", None, None),
        ("Sun, 16 Dec 2012 11:47:32 +zz:00", None, None),
        ("Sun, 16 Dec 2012 11:47:32 +00:zz", None, None),
        ("Sun, 99 Jun 2009 12:00:00 GMT", None, None),
        ("Sun, 31 Dec 9999 23:59:59 -9999", None, None),
        ("Sun Jan  4 16:29:06 2004", Some([2004, 1, 4, 16, 29, 6, 6, 4, 0]), Some(DateFormat::Asctime)),
        ("Sun Jul 15 01:16:00 +0000 2012", Some([2012, 7, 15, 1, 16, 0, 6, 197, 0]), Some(DateFormat::Asctime)),
        ("2003-12-31T10:14:55Z", Some([2003, 12, 31, 10, 14, 55, 2, 365, 0]), Some(DateFormat::W3cDtf)),
        ("2003-12-31T10:14:55-08:00", Some([2003, 12, 31, 18, 14, 55, 2, 365, 0]), Some(DateFormat::W3cDtf)),
        ("2003-12-31T18:14:55+08:00", Some([2003, 12, 31, 10, 14, 55, 2, 365, 0]), Some(DateFormat::W3cDtf)),
        ("2007-04-23T23:25:47.538+10:00", Some([2007, 4, 23, 13, 25, 47, 0, 113, 0]), Some(DateFormat::W3cDtf)),
        ("2003-12-31", Some([2003, 12, 31, 0, 0, 0, 2, 365, 0]), Some(DateFormat::W3cDtf)),
        ("2003-12", Some([2003, 12, 1, 0, 0, 0, 0, 335, 0]), Some(DateFormat::W3cDtf)),
        ("2003", Some([2003, 1, 1, 0, 0, 0, 2, 1, 0]), Some(DateFormat::W3cDtf)),
        ("2004-02-28T18:14:55-08:00", Some([2004, 2, 29, 2, 14, 55, 6, 60, 0]), Some(DateFormat::W3cDtf)),
        ("2003-02-28T18:14:55-08:00", Some([2003, 3, 1, 2, 14, 55, 5, 60, 0]), Some(DateFormat::W3cDtf)),
        ("2000-02-28T18:14:55-08:00", Some([2000, 2, 29, 2, 14, 55, 1, 60, 0]), Some(DateFormat::W3cDtf)),
        ("9999-12-31T23:59:59-99:99", None, None),
        ("2003-12-31T25:14:55Z", None, None),
        ("2003-12-31T10:61:55Z", None, None),
        ("2003-12-31T10:14:61Z", None, None),
        ("013", None, None),
        ("2013-xx-27", None, None),
        ("2013-01-28T09:xx:00Z", None, None),
        ("2013-01-28T09:00:00+00:xx", None, None),
        ("2004-07-08 23:56:58 -00:20", Some([2004, 7, 9, 0, 16, 58, 4, 191, 0]), Some(DateFormat::W3cDtf)),
        ("2004-07-08 23:56:58", Some([2004, 7, 8, 23, 56, 58, 3, 190, 0]), Some(DateFormat::W3cDtf)),
        ("2004-07-08 23:56:58.0", Some([2004, 7, 8, 23, 56, 58, 3, 190, 0]), Some(DateFormat::W3cDtf)),
    ];

    pub const RFC822: &[Row] = &[
        ("Sun, 16 Dec 2012 1:2:3 -0000", Some([2012, 12, 16, 1, 2, 3, 6, 351, 0]), Some(DateFormat::Rfc822)),
        ("sunday, 16 DEC 2012 01:02:03 gmt", Some([2012, 12, 16, 1, 2, 3, 6, 351, 0]), Some(DateFormat::Rfc822)),
        ("16 Dec 2012 01:02:03 GMT", Some([2012, 12, 16, 1, 2, 3, 6, 351, 0]), Some(DateFormat::Rfc822)),
        ("Sun 16 Dec 2012 01:02:03 GMT", Some([2012, 12, 16, 1, 2, 3, 6, 351, 0]), Some(DateFormat::Rfc822)),
        ("Fri,24 Nov 2023 18:28:36 -0000", Some([2023, 11, 24, 18, 28, 36, 4, 328, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 2004 10:00:00", Some([2004, 1, 1, 10, 0, 0, 3, 1, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 2004 10:00", Some([2004, 1, 1, 10, 0, 0, 3, 1, 0]), Some(DateFormat::Rfc822)),
        ("01 Jan 2004 10:00", Some([2004, 1, 1, 10, 0, 0, 3, 1, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 99 10:00:00 GMT", Some([1999, 1, 1, 10, 0, 0, 4, 1, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 90 10:00:00 GMT", Some([1990, 1, 1, 10, 0, 0, 0, 1, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 89 10:00:00 GMT", Some([2089, 1, 1, 10, 0, 0, 5, 1, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 2004 00:00:00 EST", Some([2004, 1, 1, 5, 0, 0, 3, 1, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 2004 00:00:00 EDT", Some([2004, 1, 1, 4, 0, 0, 3, 1, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 2004 00:00:00 CST", Some([2004, 1, 1, 6, 0, 0, 3, 1, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 2004 00:00:00 CDT", Some([2004, 1, 1, 5, 0, 0, 3, 1, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 2004 00:00:00 MST", Some([2004, 1, 1, 7, 0, 0, 3, 1, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 2004 00:00:00 MDT", Some([2004, 1, 1, 6, 0, 0, 3, 1, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 2004 00:00:00 PST", Some([2004, 1, 1, 8, 0, 0, 3, 1, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 2004 00:00:00 PDT", Some([2004, 1, 1, 7, 0, 0, 3, 1, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 2004 00:00:00 UT", Some([2004, 1, 1, 0, 0, 0, 3, 1, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 2004 00:00:00 Z", Some([2004, 1, 1, 0, 0, 0, 3, 1, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 2004 00:00:00 A", Some([2004, 1, 1, 1, 0, 0, 3, 1, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 2004 00:00:00 M", Some([2004, 1, 1, 12, 0, 0, 3, 1, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 2004 00:00:00 N", Some([2003, 12, 31, 23, 0, 0, 2, 365, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 2004 00:00:00 Y", Some([2003, 12, 31, 12, 0, 0, 2, 365, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 2004 00:00:00 +0530", Some([2003, 12, 31, 18, 30, 0, 2, 365, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 2004 00:00:00 -03:30", Some([2004, 1, 1, 3, 30, 0, 3, 1, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 2004 00:00:00 +09", Some([2003, 12, 31, 15, 0, 0, 2, 365, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 2004 00:00:00 UTC+09:00", Some([2003, 12, 31, 15, 0, 0, 2, 365, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 2004 00:00:00 Etc/GMT+9", Some([2004, 1, 1, 9, 0, 0, 3, 1, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 2004 00:00:00 CET", Some([2003, 12, 31, 23, 0, 0, 2, 365, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 2004 00:00:00 +0000 (GMT)", Some([2004, 1, 1, 0, 0, 0, 3, 1, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 2004 00:00:00 -0500 EST", Some([2004, 1, 1, 5, 0, 0, 3, 1, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 2004 00:00:00 GMT +0900", Some([2003, 12, 31, 15, 0, 0, 2, 365, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 2004 19:48:21 GMT.", Some([2004, 1, 1, 19, 48, 21, 3, 1, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 2004 19:48:21 0000", Some([2004, 1, 1, 19, 48, 21, 3, 1, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 2004 19:48:21 0130", Some([2004, 1, 1, 18, 18, 21, 3, 1, 0]), Some(DateFormat::Rfc822)),
        ("Thu,\u{a0}01\u{9}Jan 2004\u{a}19:48:21\u{3000}GMT", Some([2004, 1, 1, 19, 48, 21, 3, 1, 0]), Some(DateFormat::Rfc822)),
        ("January 1, 2004", Some([2004, 1, 1, 0, 0, 0, 3, 1, 0]), Some(DateFormat::Rfc822)),
        ("1 January 2004", Some([2004, 1, 1, 0, 0, 0, 3, 1, 0]), Some(DateFormat::Rfc822)),
        ("Sun 04 Jan 2004 04:29:06 PM EST", Some([2004, 1, 4, 21, 29, 6, 6, 4, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 2004 23:59:60 GMT", Some([2004, 1, 2, 0, 0, 0, 4, 2, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 2004 19:48:21.250 GMT", Some([2004, 1, 1, 19, 48, 21, 3, 1, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 2004 19:48:21 Foo/Bar", Some([2004, 1, 1, 19, 48, 21, 3, 1, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan. 2004 19:48:21 GMT", Some([2004, 1, 1, 19, 48, 21, 3, 1, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 2004 4:31:00 PM EST", Some([2004, 1, 1, 21, 31, 0, 3, 1, 0]), Some(DateFormat::Rfc822)),
        ("Thu, 01 Jan 2004 12:31 am", Some([2004, 1, 1, 0, 31, 0, 3, 1, 0]), Some(DateFormat::Rfc822)),
        ("Sunday, 06-Nov-94 08:49:37 GMT", Some([1994, 11, 6, 8, 49, 37, 6, 310, 0]), Some(DateFormat::Rfc822)),
        ("Thu Aug 30 2012 17:26:16 GMT+0200 (CEST)", Some([2012, 8, 30, 15, 26, 16, 3, 243, 0]), Some(DateFormat::Rfc822)),
        ("Sat, 29 Feb 2003 10:00:00 GMT", None, None),
        ("Thu, 01 Foo 2004 10:00:00 GMT", None, None),
        ("Thu, 01 Jan 2004 24:01:00 GMT", None, None),
        ("Thu, 01 Jan 2004 10:60:00 GMT", None, None),
        ("Thu, 01 Jan 2004 10:00:00 +2400", None, None),
        ("Thu, 01 Jan 2004 10:00:00 +123", None, None),
        ("Thu, 01 Jan 2004 10:00:00 1:2", None, None),
        ("Thu, 01 Jan 2004 13:00 PM", None, None),
        ("Thu, 01 Jan 2004 GMT extra", None, None),
        ("Thu, 01 Jan 20045 10:00:00 GMT", None, None),
        ("Thu, 100 Jan 2004 10:00:00 GMT", None, None),
        ("Thu, 00 Jan 2004 10:00:00 GMT", None, None),
        ("Thu, 01 Jan 0000 10:00:00 GMT", None, None),
        ("Thu, 01 Jan 0001 00:00:00 +0100", None, None),
        ("Fri, 31 Dec 9999 23:00:00 -0100", None, None),
        ("Thu, 01", None, None),
        ("Thu,", None, None),
        ("Jan", None, None),
    ];

    pub const ASCTIME: &[Row] = &[
        ("Sun Jan 4 16:29:06 EST 2004", Some([2004, 1, 4, 21, 29, 6, 6, 4, 0]), Some(DateFormat::Asctime)),
        ("Sun Jan  4 16:29:06 PST 2004", Some([2004, 1, 5, 0, 29, 6, 0, 5, 0]), Some(DateFormat::Asctime)),
        ("Wed Dec 31 23:59:59 2003", Some([2003, 12, 31, 23, 59, 59, 2, 365, 0]), Some(DateFormat::Asctime)),
        ("Jan  4 16:29:06 2004", Some([2004, 1, 4, 16, 29, 6, 6, 4, 0]), Some(DateFormat::Asctime)),
        ("Sun Jan  4 16:29:06", None, None),
        ("Sun Jan 32 16:29:06 2004", None, None),
        ("Sun Jan  4 16:29:06 EST", None, None),
    ];

    pub const ISO: &[Row] = &[
        ("2003-12-31T10:14", Some([2003, 12, 31, 10, 14, 0, 2, 365, 0]), Some(DateFormat::W3cDtf)),
        ("2003-12-31T10", Some([2003, 12, 31, 10, 0, 0, 2, 365, 0]), Some(DateFormat::W3cDtf)),
        ("2003-12-31t10:14:55z", Some([2003, 12, 31, 10, 14, 55, 2, 365, 0]), Some(DateFormat::W3cDtf)),
        ("2003-12-31T10:14:55+0530", Some([2003, 12, 31, 4, 44, 55, 2, 365, 0]), Some(DateFormat::W3cDtf)),
        ("2003-12-31T10:14:55-05", Some([2003, 12, 31, 15, 14, 55, 2, 365, 0]), Some(DateFormat::W3cDtf)),
        ("2003-12-31T10:14:55,5Z", Some([2003, 12, 31, 10, 14, 55, 2, 365, 0]), Some(DateFormat::W3cDtf)),
        ("2003-12-31 10:14:55 EST", Some([2003, 12, 31, 15, 14, 55, 2, 365, 0]), Some(DateFormat::W3cDtf)),
        ("2003-12-31 10:14:55 Z", Some([2003, 12, 31, 10, 14, 55, 2, 365, 0]), Some(DateFormat::W3cDtf)),
        ("2003-12-31 10:14:55 GMT+05:00", Some([2003, 12, 31, 5, 14, 55, 2, 365, 0]), Some(DateFormat::W3cDtf)),
        ("2003-12-31\u{a0}10:14:55", Some([2003, 12, 31, 10, 14, 55, 2, 365, 0]), Some(DateFormat::W3cDtf)),
        ("2003-12-31\u{9}10:14:55 UTC", Some([2003, 12, 31, 10, 14, 55, 2, 365, 0]), Some(DateFormat::W3cDtf)),
        ("  2003-12-31T10:14:55Z \u{a}", Some([2003, 12, 31, 10, 14, 55, 2, 365, 0]), Some(DateFormat::W3cDtf)),
        // Spaces beside the `T` (feedparser's W3C-DTF handler reads these).
        ("2003-07-01T 01:55:07-05:00", Some([2003, 7, 1, 6, 55, 7, 1, 182, 0]), Some(DateFormat::W3cDtf)),
        ("2003-07-01 T01:55:07-05:00", Some([2003, 7, 1, 6, 55, 7, 1, 182, 0]), Some(DateFormat::W3cDtf)),
        ("2003-07-01 T 01:55:07-05:00", Some([2003, 7, 1, 6, 55, 7, 1, 182, 0]), Some(DateFormat::W3cDtf)),
        ("2003-07-01T  01:55:07 -05:00", Some([2003, 7, 1, 6, 55, 7, 1, 182, 0]), Some(DateFormat::W3cDtf)),
        ("2003-07-01t\u{9}01:55Z", Some([2003, 7, 1, 1, 55, 0, 1, 182, 0]), Some(DateFormat::W3cDtf)),
        ("2003-07-01T 01:55:07.5+05:30", Some([2003, 6, 30, 20, 25, 7, 0, 181, 0]), Some(DateFormat::W3cDtf)),
        ("2003-07-01 T", None, None),
        ("2003-07-01T T01:55:07Z", None, None),
        ("2003-07-01 TT 01:55:07Z", None, None),
        ("2003-07-01 T x01:55:07Z", None, None),
        ("2003-07-01T 01:55:07Z T", None, None),
        ("2003-1-5", Some([2003, 1, 5, 0, 0, 0, 6, 5, 0]), Some(DateFormat::W3cDtf)),
        ("2003-335", Some([2003, 12, 1, 0, 0, 0, 0, 335, 0]), Some(DateFormat::Iso8601)),
        ("2004-366", Some([2004, 12, 31, 0, 0, 0, 4, 366, 0]), Some(DateFormat::Iso8601)),
        ("2003335", Some([2003, 12, 1, 0, 0, 0, 0, 335, 0]), Some(DateFormat::Iso8601)),
        ("20031231", Some([2003, 12, 31, 0, 0, 0, 2, 365, 0]), Some(DateFormat::Iso8601)),
        ("20031231T101455Z", Some([2003, 12, 31, 10, 14, 55, 2, 365, 0]), Some(DateFormat::Iso8601)),
        ("20031231T1014-0800", Some([2003, 12, 31, 18, 14, 0, 2, 365, 0]), Some(DateFormat::Iso8601)),
        ("2003-12-31T101455.5+01", Some([2003, 12, 31, 9, 14, 55, 2, 365, 0]), Some(DateFormat::Iso8601)),
        ("03-335", Some([2003, 12, 1, 0, 0, 0, 0, 335, 0]), Some(DateFormat::Iso8601)),
        ("031231T10:14:55Z", Some([2003, 12, 31, 10, 14, 55, 2, 365, 0]), Some(DateFormat::Iso8601)),
        ("22013", Some([2022, 1, 13, 0, 0, 0, 3, 13, 0]), Some(DateFormat::Iso8601)),
        ("2004-W53-6", Some([2005, 1, 1, 0, 0, 0, 5, 1, 0]), Some(DateFormat::Iso8601)),
        ("2004-W53", Some([2004, 12, 27, 0, 0, 0, 0, 362, 0]), Some(DateFormat::Iso8601)),
        ("2009W011", Some([2008, 12, 29, 0, 0, 0, 0, 364, 0]), Some(DateFormat::Iso8601)),
        ("2009W01", Some([2008, 12, 29, 0, 0, 0, 0, 364, 0]), Some(DateFormat::Iso8601)),
        ("2003-12-31T24:00:00Z", Some([2004, 1, 1, 0, 0, 0, 3, 1, 0]), Some(DateFormat::W3cDtf)),
        ("2003-12-31T23:59:60Z", Some([2004, 1, 1, 0, 0, 0, 3, 1, 0]), Some(DateFormat::W3cDtf)),
        ("0001-01-01T00:00:00Z", Some([1, 1, 1, 0, 0, 0, 0, 1, 0]), Some(DateFormat::W3cDtf)),
        ("9999-12-31T23:59:59Z", Some([9999, 12, 31, 23, 59, 59, 4, 365, 0]), Some(DateFormat::W3cDtf)),
        ("2003-13-01", None, None),
        ("2003-02-30", None, None),
        ("2003-00-10", None, None),
        ("2003-12-32", None, None),
        ("2003-366", None, None),
        ("2003-000", None, None),
        ("2003-12-31T24:00:01Z", None, None),
        ("2003-12-31T10:14:55+24:00", None, None),
        ("2003-12-31T10:14:55+05:60", None, None),
        ("2003-12-31T10:14:55Q", None, None),
        ("2003-12-31T10:14:55 XYZ", None, None),
        ("2003-12-31T10:14:55Z junk", None, None),
        ("2013-01-27-01", None, None),
        ("2013-01-28T11:30:00-06:00Textra", None, None),
        ("2003-12-31T", None, None),
        ("2003-12-31T10:14:55.", Some([2003, 12, 31, 10, 14, 55, 2, 365, 0]), Some(DateFormat::W3cDtf)),
        ("2004-W54-1", None, None),
        ("2004-W01-8", None, None),
        ("0000-01-01", None, None),
        ("0001-01-01T00:00:00+01:00", None, None),
        ("9999-12-31T23:59:59-01:00", None, None),
        ("12367", None, None),
        ("12345", Some([2012, 12, 10, 0, 0, 0, 0, 345, 0]), Some(DateFormat::Iso8601)),
        ("1", None, None),
        ("-", None, None),
        ("--12-31", None, None),
        ("2003-1231", None, None),
        ("200312311", None, None),
    ];

    pub const NATIONAL: &[Row] = &[
        ("2004-05-25 오전 12:05:00", Some([2004, 5, 24, 15, 5, 0, 0, 145, 0]), Some(DateFormat::KoreanNate)),
        ("2004-05-25 오후 12:05:00", Some([2004, 5, 25, 3, 5, 0, 1, 146, 0]), Some(DateFormat::KoreanNate)),
        ("2004-05-25 오후 1:5:0", Some([2004, 5, 25, 4, 5, 0, 1, 146, 0]), Some(DateFormat::KoreanNate)),
        ("2004-05-25 오후 13:05:00", None, None),
        ("2004-05-25 낮 11:23:17", None, None),
        ("2004년 05월 28일 01:31", Some([2004, 5, 27, 16, 31, 0, 3, 148, 0]), Some(DateFormat::KoreanOnBlog)),
        ("2004년 13월 28일 01:31:15", None, None),
        ("2004년 05월 28일 01:31:15 x", None, None),
        ("Δευ, 12 Ιαν 2004 12:00:00 GMT", Some([2004, 1, 12, 12, 0, 0, 0, 12, 0]), Some(DateFormat::Greek)),
        ("Σαβ, 13 Νοέ 2004 12:00:00 +0200", Some([2004, 11, 13, 10, 0, 0, 5, 318, 0]), Some(DateFormat::Greek)),
        ("Κυρ, 11 Ιουλ 2004 12:00:00 EST", None, None),
        ("2004-január-1T0:00+01:00", Some([2003, 12, 31, 23, 0, 0, 2, 365, 0]), Some(DateFormat::Hungarian)),
        ("2004-DECEMBER-31T23:15+00:00", Some([2004, 12, 31, 23, 15, 0, 4, 366, 0]), Some(DateFormat::Hungarian)),
        ("2004-máujus-13T9:15-05:00", Some([2004, 5, 13, 14, 15, 0, 3, 134, 0]), Some(DateFormat::Hungarian)),
        ("2004-jullius-13T9:15-05:00", None, None),
        ("2004-július-32T9:15-05:00", None, None),
        ("Fri, 2006/9/15 8:19:53 PST", Some([2006, 9, 15, 16, 19, 53, 4, 258, 0]), Some(DateFormat::Perforce)),
        ("2006/09/15 08:19:53", Some([2006, 9, 15, 8, 19, 53, 4, 258, 0]), Some(DateFormat::Perforce)),
        ("Fri, 2006/13/15 08:19:53 EDT", None, None),
        ("Fri, 06/09/15 08:19:53 EDT", None, None),
    ];
}

fn check(rows: &[Row]) {
    let mut failures = Vec::new();
    for &(input, expected, format) in rows {
        let got = parse_date_with_format(input);
        let got_tuple = got.map(|(dt, _)| struct_time(&dt));
        let got_format = got.map(|(_, f)| f);
        if got_tuple != expected || got_format != format {
            failures.push(format!(
                "{input:?}: expected {expected:?} {format:?}, got {got_tuple:?} {got_format:?}"
            ));
        }
        // parse_date agrees with parse_date_with_format.
        assert_eq!(parse_date(input), got.map(|(dt, _)| dt), "{input:?}");
    }
    assert!(
        failures.is_empty(),
        "{} of {} rows failed:\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n")
    );
}

#[test]
fn feedparser_vectors() {
    check(rows::FP);
}

#[test]
fn rfc822_variants() {
    check(rows::RFC822);
}

#[test]
fn asctime_and_unix_date() {
    check(rows::ASCTIME);
}

#[test]
fn w3cdtf_and_iso8601() {
    check(rows::ISO);
}

#[test]
fn national_formats() {
    check(rows::NATIONAL);
}

#[test]
fn fractional_seconds_are_kept() {
    use chrono::Timelike;
    let dt = parse_date("2007-04-23T23:25:47.538+10:00").unwrap();
    assert_eq!(dt.nanosecond(), 538_000_000);
    let dt = parse_date("2004-07-08 23:56:58.0").unwrap();
    assert_eq!(dt.nanosecond(), 0);
}

/// Spaces beside the `T` of a W3C-DTF date-time change nothing: every time and zone
/// shape read with a plain `T` reads the same with `T `, ` T`, ` T ` or `t  `, and a
/// text that is no date with `T` stays no date.
#[test]
fn spaces_beside_the_t_read_as_the_t() {
    let times = [
        "01:55:07-05:00",
        "01:55:07Z",
        "01:55:07 -05:00",
        "01:55:07.25+05:30",
        "01:55",
        "1:5:7Z",
        "23:59:60Z",
        "24:00:00Z",
        "01:55:07 EST",
        "25:00:00Z",
        "01:61Z",
        "01:55:07Q",
        "x01:55",
    ];
    let mut readable = 0;
    for date in ["2003-07-01", "2004-02-29", "1999-12-31", "2003-12"] {
        for time in times {
            let plain = format!("{date}T{time}");
            let want = parse_date_with_format(&plain);
            readable += usize::from(want.is_some());
            for sep in ["T ", " T", " T ", "t  ", "\u{a0}T\t"] {
                let spaced = format!("{date}{sep}{time}");
                assert_eq!(
                    parse_date_with_format(&spaced),
                    want,
                    "{spaced:?} vs {plain:?}"
                );
            }
        }
    }
    assert!(readable > 30, "{readable}");
}
