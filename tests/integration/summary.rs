//! Issue 27: the teacher's summary and the students' feedback read right in
//! every language: mistakes worded as what students did, Markdown rendered
//! in the HTML page, one attention count, Chinese punctuation in Chinese.

use std::path::{Path, PathBuf};

use crate::common::{run_in, scratch};

const MIDTERM: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/problem-sets/midterm-zh.toml");

/// A hostile roster id and name: markup and emphasis marks.
const HOSTILE: &str = "<script>x</script>**s6**";
const HOSTILE_NAME: &str = "**胡**<b>桂英</b>";
/// s4's file, with a hostile name.
const FILE4: &str = "s4 <i>**x**.toml";

/// The key of question `q` in `text`, as TOML reads it.
fn answer(text: &str, q: usize, field: &str) -> toml::Value {
    let table: toml::Table = toml::from_str(text).unwrap();
    table[&format!("q{q}")][field].clone()
}

/// The labels of a list answer.
fn labels(v: &toml::Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect()
}

/// `text` with `field` of question `q` written as `new` (the whole line).
fn set_field(text: &str, q: usize, field: &str, new: &str) -> String {
    let start = text.find(&format!("[q{q}]")).unwrap();
    let at = start + text[start..].find(&format!("\n{field} = ")).unwrap() + 1;
    let end = at + text[at..].find('\n').unwrap();
    format!("{}{field} = {new}{}", &text[..at], &text[end..])
}

fn list(items: &[String]) -> String {
    let quoted: Vec<String> = items.iter().map(|i| format!("\"{i}\"")).collect();
    format!("[{}]", quoted.join(", "))
}

/// The batch the tests below grade, in `dir`: the Chinese midterm for six
/// students (the sixth's id hostile), of whom
/// - s1 and s2 miss question 2's first β-cut, each on their own tree;
/// - s1, s2 and s3 list question 2's first evaluated leaf as pruned;
/// - s3 alone writes 999 for question 3's value (one student: no class mistake);
/// - s4 hands in the key, under a hostile file name, with a field question 1
///   does not have (a problem the teacher should see) and a slip in question 5;
/// - s5 and the sixth hand in nothing.
///
/// Returns the ids of s1's missed cut and of its listed leaf.
struct Batch {
    dir: PathBuf,
    missed_cut: String,
    examined: String,
}

fn batch(name: &str) -> Batch {
    let dir = scratch(name);
    crate::common::exam_for(
        &dir,
        &[
            ("s1", "林秀兰"),
            ("s2", "欧阳娜娜"),
            ("s3", "程平"),
            ("s4", "曾娜"),
            ("s5", "傅强"),
            (HOSTILE, HOSTILE_NAME),
        ],
        MIDTERM,
    );
    let h = dir.join("handed-in");
    std::fs::create_dir_all(&h).unwrap();
    let key =
        |id: &str| std::fs::read_to_string(dir.join(format!("exam/keys/{id}/key.toml"))).unwrap();
    let (mut missed_cut, mut examined) = (String::new(), String::new());
    for id in ["s1", "s2", "s3"] {
        let mut text = key(id);
        let leaf = labels(&answer(&text, 2, "evaluated"))[0].clone();
        let mut pruned = labels(&answer(&text, 2, "pruned"));
        pruned.push(leaf.clone());
        text = set_field(&text, 2, "pruned", &list(&pruned));
        if id != "s3" {
            let cuts = labels(&answer(&text, 2, "beta_cuts"));
            assert!(!cuts.is_empty(), "{id}: question 2 has a β-cut");
            if id == "s1" {
                missed_cut = cuts[0].clone();
            }
            text = set_field(&text, 2, "beta_cuts", &list(&cuts[1..]));
        } else {
            text = set_field(&text, 3, "value", "999");
        }
        if id == "s1" {
            examined = leaf;
        }
        std::fs::write(h.join(format!("{id}.toml")), text).unwrap();
    }
    let s4 = key("s4").replacen("[q1]\n", "[q1]\nbogus = 3\n", 1);
    let s4 = set_field(&s4, 5, "sum_solution", "[n0 -> n1]");
    std::fs::write(h.join(FILE4), s4).unwrap();
    Batch {
        dir,
        missed_cut,
        examined,
    }
}

/// `treequiz grade` of the batch into `out`, with the manifest `manifest`.
fn grade(dir: &Path, manifest: &str, out: &str) -> (i32, String) {
    let (code, stdout, err) = run_in(
        dir,
        &["grade", "--manifest", manifest, "handed-in", "--out", out],
    );
    assert_eq!(err, "");
    (code, stdout)
}

/// The same keys in English: the manifest names the language the reports speak.
fn english_manifest(dir: &Path) -> String {
    let manifest = std::fs::read_to_string(dir.join("exam/keys/manifest.json"))
        .or_else(|_| std::fs::read_to_string(dir.join("exam/manifest.json")))
        .unwrap();
    let en = manifest.replacen("\"language\":\"zh\"", "\"language\":\"en\"", 1);
    assert_ne!(en, manifest);
    std::fs::write(dir.join("manifest-en.json"), en).unwrap();
    "manifest-en.json".into()
}

/// The lines of the common mistakes section of a `summary.md`.
fn mistakes<'a>(md: &'a str, heading: &str) -> Vec<&'a str> {
    md.lines()
        .skip_while(|l| !l.starts_with(heading))
        .skip(1)
        .take_while(|l| !l.starts_with("## "))
        .filter(|l| l.starts_with("- "))
        .collect()
}

#[test]
fn common_mistakes_say_what_students_did_and_need_two_of_them() {
    let b = batch("summary-mistakes");
    let (code, _) = grade(&b.dir, "exam", "report");
    assert_eq!(code, 1);
    let md = std::fs::read_to_string(b.dir.join("report/summary.md")).unwrap();
    let lines = mistakes(&md, "## 最常见的错误");
    // Worded as what the students did, not as the key's sentence about the cut.
    let cut = format!(
        "- 50 %（q2 `beta_cuts`）：漏了 {} 处的 β 剪枝",
        b.missed_cut
    );
    let pruned = format!(
        "- 75 %（q2 `pruned`）：把会被考察的 {} 算作被剪去",
        b.examined
    );
    for want in [&cut, &pruned] {
        assert!(lines.contains(&want.as_str()), "no `{want}` in:\n{md}");
    }
    for key_sentence in ["发生 β 剪枝：", "剪去：", "从未被考察", "你剪去了"] {
        assert!(
            !lines.iter().any(|l| l.contains(key_sentence)),
            "`{key_sentence}` in:\n{md}"
        );
    }
    // One student's mistake is theirs: not listed, as in the per-field list.
    assert!(
        !lines.iter().any(|l| l.contains("q3 `value`")),
        "a mistake of one student is listed:\n{md}"
    );
    assert!(md.contains("## 最常见的错误（至少 2 名学生）"), "{md}");
    assert!(md.contains("最常见的错误答案（至少 2 名学生）"), "{md}");

    let en = english_manifest(&b.dir);
    grade(&b.dir, &en, "report-en");
    let md = std::fs::read_to_string(b.dir.join("report-en/summary.md")).unwrap();
    let lines = mistakes(&md, "## Most common mistakes");
    for want in [
        format!(
            "- 50 % (q2 `beta_cuts`): missed the β-cut at {}",
            b.missed_cut
        ),
        format!(
            "- 75 % (q2 `pruned`): counted {} as pruned, though it is examined",
            b.examined
        ),
    ] {
        assert!(lines.contains(&want.as_str()), "no `{want}` in:\n{md}");
    }
    assert!(!lines.iter().any(|l| l.contains("q3 `value`")), "{md}");
    assert!(
        md.contains("## Most common mistakes (at least 2 students)"),
        "{md}"
    );
}

/// The number `grade` prints before `files need attention` (or `file needs`).
fn cli_attention(stdout: &str) -> usize {
    let at = stdout
        .find(" files need attention")
        .or_else(|| stdout.find(" file needs attention"))
        .unwrap_or_else(|| panic!("no attention count in {stdout}"));
    let digits = stdout[..at]
        .rsplit(|c: char| !c.is_ascii_digit())
        .next()
        .unwrap();
    digits.parse().unwrap()
}

#[test]
fn grade_and_the_summary_count_the_same_files_needing_attention() {
    let b = batch("summary-attention");
    let (code, stdout) = grade(&b.dir, "exam", "report");
    // Students who handed in nothing are counted apart (and still make the exit code 1).
    assert_eq!(code, 1);
    assert!(stdout.contains("2 students handed in nothing"), "{stdout}");
    let printed = cli_attention(&stdout);
    let md = std::fs::read_to_string(b.dir.join("report/summary.md")).unwrap();
    let heading = md
        .lines()
        .find(|l| l.starts_with("## 需要你处理的文件"))
        .unwrap_or_else(|| panic!("no attention section in:\n{md}"));
    let listed = md
        .lines()
        .skip_while(|l| *l != heading)
        .skip(1)
        .take_while(|l| !l.starts_with("## "))
        .filter(|l| l.starts_with("- "))
        .count();
    // Only s4 (an unknown field, a slip) needs a look.
    assert_eq!((printed, listed), (1, 1), "{stdout}\n{md}");
    assert!(heading.contains('1'), "{heading}");
    let html = std::fs::read_to_string(b.dir.join("report/summary.html")).unwrap();
    let rows = html
        .split("<h2>需要你处理的文件")
        .nth(1)
        .unwrap()
        .split("</table>")
        .next()
        .unwrap()
        .matches("<tr><td>")
        .count();
    assert_eq!(rows, printed, "{html}");
}

/// The HTML a text is shown as by tera's escaping.
fn escaped(text: &str) -> String {
    let mut out = Vec::new();
    tera::escape_html(text, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn the_html_summary_renders_our_code_and_shows_student_text_as_text() {
    let b = batch("summary-html");
    grade(&b.dir, "exam", "report");
    let html = std::fs::read_to_string(b.dir.join("report/summary.html")).unwrap();
    // The grader's sentences quote code: shown as code, no backtick left.
    assert!(
        html.contains("第 1 题没有字段 <code>bogus</code>"),
        "{html}"
    );
    // Students' and the roster's text is escaped, never markup, never emphasis.
    assert!(!html.contains("<script") && !html.contains("<b>") && !html.contains("<i>"));
    for text in [HOSTILE, HOSTILE_NAME, FILE4] {
        assert!(
            html.contains(&escaped(text)),
            "{text} not shown as written:\n{html}"
        );
    }
    let ours = [HOSTILE, HOSTILE_NAME, FILE4]
        .iter()
        .fold(html.clone(), |h, t| h.replace(&escaped(t), ""));
    for mark in ["`", "**"] {
        assert!(!ours.contains(mark), "a literal {mark} in:\n{html}");
    }
    let feedback = std::fs::read_dir(b.dir.join("report/feedback"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().contains("s4") && p.extension().unwrap() == "html")
        .unwrap();
    let feedback = std::fs::read_to_string(feedback).unwrap();
    assert!(feedback.contains("<code>bogus</code>"), "{feedback}");
    assert!(
        !feedback.replace(&escaped(FILE4), "").contains('`'),
        "{feedback}"
    );

    // The Markdown summary escapes the same texts: no live tag, no emphasis.
    let md = std::fs::read_to_string(b.dir.join("report/summary.md")).unwrap();
    assert!(md.contains("\\<script>x\\</script>\\*\\*s6\\*\\*"), "{md}");
    assert!(md.contains("\\*\\*胡\\*\\*\\<b>桂英\\</b>"), "{md}");
}

/// Places where Chinese prose meets ASCII punctuation: a CJK character (or
/// full-width mark) followed, after at most one space, by `:`, `.`, `,` or
/// `;`, or by `(` directly; and `:` `;` `,` followed by a CJK character.
/// Code (backticks, `<code>`) is left out: answers and TOML quoted in it stay
/// ASCII.
fn ascii_in_chinese(page: &str, html: bool) -> Vec<String> {
    let mut text = page.to_string();
    if html {
        let cut = |t: &str, open: &str, close: &str, with: &str| {
            let mut out = String::new();
            let mut rest = t;
            while let Some(a) = rest.find(open) {
                out.push_str(&rest[..a]);
                out.push_str(with);
                rest = rest[a..]
                    .find(close)
                    .map_or("", |b| &rest[a + b + close.len()..]);
            }
            out + rest
        };
        text = cut(&text, "<style", "</style>", "");
        text = cut(&text, "<code>", "</code>", "C");
        text = cut(&text, "<", ">", "");
        for (entity, c) in [
            ("&lt;", "<"),
            ("&gt;", ">"),
            ("&quot;", "\""),
            ("&#39;", "'"),
            ("&amp;", "&"),
        ] {
            text = text.replace(entity, c);
        }
    }
    let text = text.split('`').step_by(2).collect::<Vec<_>>().join("C");
    let cjk = |c: char| matches!(c, '\u{4e00}'..='\u{9fff}' | '\u{3000}'..='\u{303f}' | '\u{ff00}'..='\u{ffef}');
    let ideograph = |c: char| matches!(c, '\u{4e00}'..='\u{9fff}');
    let chars: Vec<char> = text.chars().collect();
    let mut found = Vec::new();
    for i in 0..chars.len() {
        let at = |j: usize| chars.get(j).copied().unwrap_or('\n');
        let (c, n) = (at(i), at(i + 1));
        let after = if n == ' ' { at(i + 2) } else { n };
        let bad = (cjk(c) && (matches!(after, ':' | '.' | ',' | ';') || n == '('))
            || (matches!(c, ':' | ';' | ',') && ideograph(after));
        if bad {
            let from = i.saturating_sub(12);
            found.push(chars[from..(i + 12).min(chars.len())].iter().collect());
        }
    }
    found
}

#[test]
fn chinese_feedback_and_summary_use_chinese_punctuation() {
    let b = batch("summary-punctuation");
    grade(&b.dir, "exam", "report");
    let mut pages = vec![
        b.dir.join("report/summary.md"),
        b.dir.join("report/summary.html"),
    ];
    pages.extend(
        std::fs::read_dir(b.dir.join("report/feedback"))
            .unwrap()
            .map(|e| e.unwrap().path()),
    );
    let mut bad = Vec::new();
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        for place in ascii_in_chinese(&text, page.extension().unwrap() == "html") {
            bad.push(format!("{}: …{place}…", page.display()));
        }
    }
    assert!(
        bad.is_empty(),
        "ASCII punctuation in Chinese:\n{}",
        bad.join("\n")
    );
    let s3 = std::fs::read_to_string(b.dir.join("report/feedback/handed-in_s3.md")).unwrap();
    let key = std::fs::read_to_string(b.dir.join("exam/keys/s3/key.toml")).unwrap();
    let value = answer(&key, 1, "value").to_string();
    // Answers quoted stay as written.
    assert!(
        s3.contains(&format!(
            "- `value`（3.33 / 3.33）：**正确**。你的答案：{value}。参考答案：{value}\n"
        )),
        "{s3}"
    );
    let summary = std::fs::read_to_string(b.dir.join("report/summary.md")).unwrap();
    assert!(summary.contains("## 需要你处理的文件（1）"), "{summary}");
    assert!(
        summary.contains("## 没有交答题文件的学生（2）"),
        "{summary}"
    );

    // The same pages in English keep their punctuation.
    let en = english_manifest(&b.dir);
    grade(&b.dir, &en, "report-en");
    let s3 = std::fs::read_to_string(b.dir.join("report-en/feedback/handed-in_s3.md")).unwrap();
    assert!(
        s3.contains(&format!(
            "- `value` (3.33 / 3.33): **correct**. You wrote: {value}. Key: {value}\n"
        )),
        "{s3}"
    );
    let summary = std::fs::read_to_string(b.dir.join("report-en/summary.md")).unwrap();
    assert!(
        summary.contains("## Files that need your attention (1)"),
        "{summary}"
    );
}

/// A student's own check of a practice sheet prints the same punctuation.
#[test]
fn chinese_check_output_uses_chinese_punctuation() {
    let dir = scratch("summary-check");
    std::fs::copy(MIDTERM, dir.join("midterm-zh.toml")).unwrap();
    let (code, _, err) = run_in(
        &dir,
        &[
            "generate",
            "midterm-zh.toml",
            "--seed",
            "3",
            "--out",
            "practice",
            "--format",
            "md",
        ],
    );
    assert_eq!((code, err.as_str()), (0, ""));
    let key = std::fs::read_to_string(dir.join("practice/key.toml")).unwrap();
    std::fs::write(
        dir.join("practice/mine.toml"),
        set_field(&key, 3, "value", "999"),
    )
    .unwrap();
    let (_, text, err) = run_in(&dir, &["check", "practice/mine.toml", "--format", "text"]);
    assert!(text.contains("999"), "{text}{err}");
    let bad = ascii_in_chinese(&text, false);
    assert!(bad.is_empty(), "{bad:?} in:\n{text}");
}

/// The lines of the section of `md` under the heading `heading`, up to the next `## `.
fn section<'a>(md: &'a str, heading: &str) -> Vec<&'a str> {
    md.lines()
        .skip_while(|l| *l != heading)
        .skip(1)
        .take_while(|l| !l.starts_with("## "))
        .collect()
}

/// The midterm class's summary analyses each question and field, and each
/// generator measure, in Chinese and in English: numbers, never NaN, and a
/// plot per question in the HTML page.
#[test]
fn the_summary_analyses_items_in_both_languages() {
    let b = batch("summary-items");
    grade(&b.dir, "exam", "report");
    let en = english_manifest(&b.dir);
    grade(&b.dir, &en, "report-en");
    // The same files, the same page, byte for byte (plots included).
    grade(&b.dir, "exam", "report-again");
    for name in ["summary.md", "summary.html"] {
        let read = |out: &str| std::fs::read(b.dir.join(out).join(name)).unwrap();
        assert!(read("report") == read("report-again"), "{name} differs");
    }
    for (out, heading, lines) in [
        (
            "report",
            "## 题目分析",
            [
                "整份试卷（n = 4）：平均 97.2 %，标准差 1.2 %，Cronbach α -4.61。",
                "| 字段 | 难度（通过率） | 标准差 | 区分度 | 区分效率 | 需留意 |",
                "| `beta_cuts` | 79 % | 25 % | -93 % | -94 % | 区分度为负：请检查答案和题目措辞 |",
                "| `value` | 100 % | 0 % | — | — | 过于简单 |",
                "| `deep_cuts` | 0 | — | 4 |",
                "| `beta_cuts` | 2–3 | 1.00 | 4 |",
            ],
        ),
        (
            "report-en",
            "## Item analysis",
            [
                "Whole test (n = 4): mean 97.2 %, SD 1.2 %, Cronbach's α -4.61.",
                "| Field | Facility | SD | Discrimination | Efficiency | Look at |",
                "| `beta_cuts` | 79 % | 25 % | -93 % | -94 % | negative discrimination: check the key and the wording |",
                "| `value` | 100 % | 0 % | — | — | very easy |",
                "| `deep_cuts` | 0 | — | 4 |",
                "| `beta_cuts` | 2–3 | 1.00 | 4 |",
            ],
        ),
    ] {
        let md = std::fs::read_to_string(b.dir.join(out).join("summary.md")).unwrap();
        let items = section(&md, heading);
        for want in lines {
            assert!(
                items.contains(&want),
                "no `{want}` under {heading} in:\n{md}"
            );
        }
        // A heading and a table per question (six), and a table of measures each.
        assert_eq!(
            items.iter().filter(|l| l.starts_with("### ")).count(),
            6,
            "{md}"
        );
        let html = std::fs::read_to_string(b.dir.join(out).join("summary.html")).unwrap();
        let at = html.find("<section class=\"exercise items\">").unwrap();
        let end = at + html[at..].find("</section>").unwrap();
        assert_eq!(html[at..end].matches("<svg").count(), 6);
        for text in [&md, &html] {
            for bad in ["NaN", "inf %", "-0 %"] {
                assert!(!text.contains(bad), "{bad} in {out}");
            }
        }
    }
}
