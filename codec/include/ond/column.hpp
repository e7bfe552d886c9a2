// The columns a DocList stores its documents in (ond/doc_list.hpp): a vector that grows without
// zero-filling, and the string-id column that takes 2 bytes an id while its ids are small.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "ond/doc.hpp"

namespace ond {

namespace detail {
// What the ranges' iterators share (here and in ond/view.hpp): an index that ++ steps and ==
// compares. Each iterator adds only what operator* makes of it.
template <class Iterator>
class IndexStep {
public:
    using difference_type = std::ptrdiff_t;
    Iterator& operator++() noexcept {
        ++i_;
        return static_cast<Iterator&>(*this);
    }
    Iterator operator++(int) noexcept {
        Iterator old = static_cast<Iterator&>(*this);
        ++i_;
        return old;
    }
    bool operator==(const IndexStep& o) const noexcept { return i_ == o.i_; }

protected:
    IndexStep() = default;
    explicit IndexStep(std::size_t i) noexcept : i_(i) {}
    std::size_t i_ = 0;
};

// An iterator over what a parent's operator[] makes on the fly.
template <class Parent, class Value>
class SubscriptIterator : public IndexStep<SubscriptIterator<Parent, Value>> {
public:
    using value_type = Value;
    SubscriptIterator() = default;
    SubscriptIterator(const Parent* p, std::size_t i) noexcept : IndexStep<SubscriptIterator>(i), p_(p) {}
    Value operator*() const noexcept { return (*p_)[this->i_]; }

private:
    const Parent* p_ = nullptr;
};

// The allocator of the container-wide columns: growing one default-initialises, so the
// readers' resize to a record's token count does not zero-fill bytes they write next.
template <class T>
struct DefaultInitAllocator : std::allocator<T> {
    using value_type = T;
    template <class U>
    struct rebind { using other = DefaultInitAllocator<U>; };
    DefaultInitAllocator() = default;
    template <class U>
    DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}
    template <class U>
    void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) { ::new (static_cast<void*>(p)) U; }
    template <class U, class... Args>
    void construct(U* p, Args&&... args) { ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...); }
};
}  // namespace detail

template <class T>
using Column = std::vector<T, detail::DefaultInitAllocator<T>>;

// The largest id a narrow id column holds.
inline constexpr StringId narrow_id_max = 0xFFFF;

class IdColumn;

// Read-only string ids of rows [offset, offset + n) of an IdColumn: ids[i], size(), range-for,
// and visit(f), which calls f once with the values as a typed std::span (2 or 4 bytes an id as
// stored) for a loop that should not test the width per id. It reads through the column, not
// through a pointer to its rows, so it stays valid while the column's rows are there: a column
// that widens, or reallocates to grow, is read where its rows are now (the new values
// included). It dangles only when the column itself goes (its list is destroyed or moved).
class Ids {
public:
    Ids() = default;
    Ids(const IdColumn& column OND_LIFETIMEBOUND, std::size_t offset, std::size_t n) noexcept
        : col_(&column), off_(offset), n_(n) {}

    std::size_t size() const noexcept { return n_; }
    bool empty() const noexcept { return n_ == 0; }
    inline StringId operator[](std::size_t i) const noexcept;
    inline bool wide() const noexcept;
    template <class F>
    decltype(auto) visit(F&& f) const;
    Ids subspan(std::size_t offset, std::size_t count) const noexcept { return Ids(*col_, off_ + offset, count); }
    using iterator = detail::SubscriptIterator<Ids, StringId>;
    iterator begin() const noexcept { return iterator(this, 0); }
    iterator end() const noexcept { return iterator(this, n_); }

private:
    const IdColumn* col_ = nullptr;
    std::size_t off_ = 0;
    std::size_t n_ = 0;
};

// A column of string ids that takes 2 bytes an id while every id it was given fits (at most
// narrow_id_max: a string table of up to 65,535 strings), and 4 bytes from the first one that
// does not on (it widens once, copying every id; it never narrows again). Read it by index, as
// Ids, or through visit; write it with set and assign, which widen it when an id needs it.
class IdColumn {
public:
    std::size_t size() const noexcept { return wide_ ? w_.size() : n_.size(); }
    bool empty() const noexcept { return size() == 0; }
    std::size_t capacity() const noexcept { return wide_ ? w_.capacity() : n_.capacity(); }
    StringId operator[](std::size_t i) const noexcept { return wide_ ? w_[i] : n_[i]; }
    bool wide() const noexcept { return wide_; }
    // Rows [offset, offset + count) as Ids, which read through this column (not on a temporary
    // column: the Ids would outlive it).
    Ids ids(std::size_t offset, std::size_t count) const& noexcept OND_LIFETIMEBOUND { return Ids(*this, offset, count); }
    Ids ids(std::size_t offset, std::size_t count) const&& = delete;
    Ids ids() const& noexcept OND_LIFETIMEBOUND { return ids(0, size()); }
    Ids ids() const&& = delete;
    // Calls f once with rows [offset, offset + count) as a std::span of the column's width.
    template <class F>
    decltype(auto) visit(std::size_t offset, std::size_t count, F&& f) const {
        if (wide_) return f(std::span<const StringId>(w_.data() + offset, count));
        return f(std::span<const std::uint16_t>(n_.data() + offset, count));
    }
    using iterator = detail::SubscriptIterator<IdColumn, StringId>;
    iterator begin() const noexcept { return iterator(this, 0); }
    iterator end() const noexcept { return iterator(this, size()); }

    // New rows are left unset, as Column's are.
    void resize(std::size_t n) { wide_ ? w_.resize(n) : n_.resize(n); }
    void reserve(std::size_t n) { wide_ ? w_.reserve(n) : n_.reserve(n); }
    void set(std::size_t i, StringId id) {
        if (!wide_ && id > narrow_id_max) widen();
        wide_ ? void(w_[i] = id) : void(n_[i] = static_cast<std::uint16_t>(id));
    }
    // Rows [at, at + ids.size()) from ids (rows that exist already).
    void assign(std::size_t at, std::span<const StringId> ids) {
        if (!wide_ && std::any_of(ids.begin(), ids.end(), [](StringId id) { return id > narrow_id_max; })) widen();
        if (wide_)
            std::copy(ids.begin(), ids.end(), w_.begin() + static_cast<std::ptrdiff_t>(at));
        else
            std::transform(ids.begin(), ids.end(), n_.begin() + static_cast<std::ptrdiff_t>(at),
                           [](StringId id) { return static_cast<std::uint16_t>(id); });
    }
    // Makes the column hold ids up to `max` (widens it if that is past narrow_id_max).
    void fit(StringId max) {
        if (!wide_ && max > narrow_id_max) widen();
    }
    // The rows as pointers, for a reader that fitted the column first: the one of the column's
    // width, the other null (a column without rows may give null for both).
    std::uint16_t* narrow_rows(std::size_t at) noexcept { return wide_ ? nullptr : n_.data() + at; }
    StringId* wide_rows(std::size_t at) noexcept { return wide_ ? w_.data() + at : nullptr; }

private:
    void widen() {
        w_.assign(n_.begin(), n_.end());
        Column<std::uint16_t>().swap(n_);
        wide_ = true;
    }
    Column<std::uint16_t> n_;
    Column<StringId> w_;
    bool wide_ = false;
};

inline StringId Ids::operator[](std::size_t i) const noexcept { return (*col_)[off_ + i]; }
inline bool Ids::wide() const noexcept { return col_ != nullptr && col_->wide(); }
template <class F>
decltype(auto) Ids::visit(F&& f) const {
    if (col_ == nullptr) return IdColumn().visit(0, 0, std::forward<F>(f));  // a default Ids: no rows
    return col_->visit(off_, n_, std::forward<F>(f));
}

}  // namespace ond
