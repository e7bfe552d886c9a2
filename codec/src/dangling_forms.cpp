// The dangling forms of the API, each of which must fail to compile (a view taken from a
// temporary that dies at the end of its statement), and the safe forms beside them, which must
// compile. Not part of any target: the test codec.dangling-forms compiles this file twice
// (cmake/expect_compile_errors.cmake): with -DOND_SAFE_FORMS, which must compile, and without,
// where every line marked `// dangling` must have an error of its own naming a deleted overload.
#include <string>
#include <string_view>
#include <vector>

#include "ond/ond.hpp"

#ifdef OND_SAFE_FORMS
void safe_forms() {
    // Safe: views of objects that outlive them, and values (not references) out of temporaries.
    ond::Container c;
    const std::string_view s = c.strings.view(0);
    const ond::Ids ids = c.docs.token_columns().attrs[0].ids();
    const std::string path = ond::try_decode(ond::Bytes()).error().path();
    const ond::Error error = ond::try_decode(ond::Bytes()).error();
    const std::string detail = ond::Error(ond::Errc::header_bad_magic, 0, "d").detail();
    const std::vector<ond::StringId>& column = ond::Doc().tokens.column(ond::TokenColumn::pos);  // moved out
    (void)column;
    (void)s, (void)ids, (void)path, (void)error, (void)detail;
}
#else
void dangling_form_1() {
    const std::string_view s = ond::StringStore().view(0);  // dangling
    (void)s;
}
void dangling_form_2() {
    const ond::Ids ids = ond::IdColumn().ids();  // dangling
    (void)ids;
}
void dangling_form_3() {
    const ond::Ids ids = ond::IdColumn().ids(0, 0);  // dangling
    (void)ids;
}
void dangling_form_4() {
    const ond::TokenColumns& t = ond::Container().docs.token_columns();  // dangling
    (void)t;
}
void dangling_form_5() {
    const std::string& t = ond::Container().docs.texts();  // dangling
    (void)t;
}
void dangling_form_6() {
    const ond::Ids ids = ond::Container().docs.token_columns().attrs[0].ids();  // dangling
    (void)ids;
}
void dangling_form_7() {
    const ond::Ids ids = ond::Container().docs[0].tokens.column(ond::TokenColumn::pos);  // dangling
    (void)ids;
}
void dangling_form_8() {
    const ond::DocView v = ond::Container().doc(0);  // dangling
    (void)v;
}
void dangling_form_9() {
    for (const ond::DocView v : ond::Container().doc_views()) (void)v;  // dangling
}
void dangling_form_10() {
    const ond::StringStore& s = ond::DocBinReader(ond::Bytes()).strings();  // dangling
    (void)s;
}
void dangling_form_11() {
    const ond::RecordView& r = ond::DocBinReader(ond::Bytes()).doc();  // dangling
    (void)r;
}
#endif
