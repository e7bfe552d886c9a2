// Builds a document with an entity and a category, writes it with a CRC and reads it back.
#include <ond/ond.hpp>

#include <iostream>

int main() {
    ond::Container c;
    c.crc = true;
    ond::DocBuilder b(c, "Apple buys a startup.");
    b.token("Apple").pos("PROPN");
    b.token("buys").pos("VERB");
    b.token("a").pos("DET");
    b.token("startup").pos("NOUN");
    b.token(".").pos("PUNCT");
    b.entity(0, 1, "ORG").category("news", 0.9f);

    std::vector<std::byte> bytes = ond::encode(c);
    ond::Container back = ond::decode(bytes);
    const bool equal = ond::same_content(back, c);
    std::cout << bytes.size() << " bytes, read back " << (equal ? "equal" : "DIFFERENT") << '\n';
    ond::EntityView org = back.doc(0).ents()[0];
    std::cout << org.label() << ": " << org.text() << "; news " << back.doc(0).category("news").value() << '\n';
    return equal ? 0 : 1;
}
