// Writes a document with the installed codec, reads it back, and checks it round-trips.
#include <cstdio>

#include <ond/ond.hpp>

int main() {
    ond::Container c;
    ond::Doc d;
    d.set_text("find_package works");
    d.tokens.resize(1);
    d.tokens.start[0] = 0;
    d.tokens.length[0] = 4;
    d.tokens.column(ond::TokenColumn::pos)[0] = c.strings.intern("VERB");
    c.docs.push_back(d);  // the container keeps a copy, column by column
    c.crc = true;
    const auto bytes = ond::encode(c);
    const ond::Container back = ond::decode(ond::Bytes(bytes));
    if (!ond::same_content(c, back)) return 1;
    // A document of another container is re-interned by append, refused by push_back.
    ond::Container other;
    other.strings.intern("NOUN");
    other.append(back.doc(0));
    if (other.doc(0).token(0).pos() != "VERB") return 1;
    if (ond::try_push_back(other, back.docs[0].to_doc())) return 1;
    std::printf("consumer: %zu bytes, round trip ok\n", bytes.size());
    return 0;
}
