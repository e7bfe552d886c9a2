// The dangling forms of the API, each of which must fail to compile (a view taken from a
// temporary that dies at the end of its statement), and the safe forms beside them, which must
// compile. Not part of any target: the test codec.dangling-forms compiles this file once per
// case with -DOND_DANGLING_CASE=N (cmake/expect_compile_errors.cmake) and expects case 0 to
// compile and every other case to fail on a deleted overload.
#include <string>
#include <string_view>
#include <vector>

#include "ond/ond.hpp"

void forms() {
#if OND_DANGLING_CASE == 0
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
#elif OND_DANGLING_CASE == 1
    const std::string_view s = ond::StringStore().view(0);
    (void)s;
#elif OND_DANGLING_CASE == 2
    const ond::Ids ids = ond::IdColumn().ids();
    (void)ids;
#elif OND_DANGLING_CASE == 3
    const ond::Ids ids = ond::IdColumn().ids(0, 0);
    (void)ids;
#elif OND_DANGLING_CASE == 4
    const ond::TokenColumns& t = ond::Container().docs.token_columns();
    (void)t;
#elif OND_DANGLING_CASE == 5
    const std::string& t = ond::Container().docs.texts();
    (void)t;
#elif OND_DANGLING_CASE == 6
    const ond::Ids ids = ond::Container().docs.token_columns().attrs[0].ids();
    (void)ids;
#elif OND_DANGLING_CASE == 7
    const ond::Ids ids = ond::Container().docs[0].tokens.column(ond::TokenColumn::pos);
    (void)ids;
#elif OND_DANGLING_CASE == 8
    const ond::DocView v = ond::Container().doc(0);
    (void)v;
#elif OND_DANGLING_CASE == 9
    for (const ond::DocView v : ond::Container().doc_views()) (void)v;
#elif OND_DANGLING_CASE == 10
    const ond::StringStore& s = ond::DocBinReader(ond::Bytes()).strings();
    (void)s;
#elif OND_DANGLING_CASE == 11
    const ond::RecordView& r = ond::DocBinReader(ond::Bytes()).doc();
    (void)r;
#endif
}
