// Boxed<T>: an optional value kept on the heap, with std::optional's interface (`if (b)`,
// `b->x`, `*b`, `b = value`, `has_value()`, `reset()`). For a large member that few objects
// have: the object holds one pointer instead of the whole T (Compile::failure: 8 bytes instead
// of 240 in every compile, and one compile in many fails). Copies copy the value.
#pragma once

#include <memory>
#include <utility>

namespace dynascope {

template <class T> class Boxed {
public:
    Boxed() = default;
    Boxed(T value)
        : m_value(std::make_unique<T>(std::move(value)))
    {
    }
    Boxed(const Boxed& o)
        : m_value(o.m_value ? std::make_unique<T>(*o.m_value) : nullptr)
    {
    }
    Boxed(Boxed&&) noexcept = default;
    Boxed& operator=(const Boxed& o)
    {
        if (this != &o)
            m_value = o.m_value ? std::make_unique<T>(*o.m_value) : nullptr;
        return *this;
    }
    Boxed& operator=(Boxed&&) noexcept = default;
    Boxed& operator=(T value)
    {
        m_value = std::make_unique<T>(std::move(value));
        return *this;
    }

    bool has_value() const { return m_value != nullptr; }
    explicit operator bool() const { return has_value(); }
    T& operator*() { return *m_value; }
    const T& operator*() const { return *m_value; }
    T* operator->() { return m_value.get(); }
    const T* operator->() const { return m_value.get(); }
    T& emplace()
    {
        m_value = std::make_unique<T>();
        return *m_value;
    }
    void reset() { m_value.reset(); }

private:
    std::unique_ptr<T> m_value;
};

} // namespace dynascope
