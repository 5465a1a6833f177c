#include "core/model/record_list.h"

#include <algorithm>

namespace dynascope {

namespace {
void putVarint(std::string& out, uint32_t v)
{
    char bytes[5];
    size_t n = 0;
    while (v >= 0x80) {
        bytes[n++] = static_cast<char>((v & 0x7f) | 0x80);
        v >>= 7;
    }
    bytes[n++] = static_cast<char>(v);
    out.append(bytes, n);
}

uint32_t getVarint(const std::string& in, size_t& at)
{
    uint32_t v = 0;
    for (int shift = 0; at < in.size() && shift < 35; shift += 7) {
        const auto byte = static_cast<unsigned char>(in[at++]);
        v |= static_cast<uint32_t>(byte & 0x7f) << shift;
        if (!(byte & 0x80))
            break;
    }
    return v;
}
} // namespace

RecordList::RecordList(std::vector<uint32_t> indices)
{
    std::sort(indices.begin(), indices.end());
    indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
    for (uint32_t i : indices)
        push_back(i);
}

void RecordList::flushOpenRun()
{
    if (m_runLength == 0)
        return;
    putVarint(m_bytes, m_runStart - m_closedEnd);
    putVarint(m_bytes, m_runLength - 1);
    m_closedEnd = m_runStart + m_runLength;
    m_runLength = 0;
}

void RecordList::push_back(uint32_t index)
{
    if (m_size == 0) {
        m_runStart = index;
        m_runLength = 1;
        m_size = 1;
        return;
    }
    const uint32_t last = back();
    if (index == last + 1 && last != UINT32_MAX) {
        ++m_runLength;
        ++m_size;
    } else if (index > last) {
        flushOpenRun();
        m_runStart = index;
        m_runLength = 1;
        ++m_size;
    } else {
        std::vector<uint32_t> all = toVector();
        all.push_back(index);
        *this = RecordList(std::move(all));
    }
}

void RecordList::erase(uint32_t index)
{
    std::vector<uint32_t> all = toVector();
    const auto it = std::find(all.begin(), all.end(), index);
    if (it == all.end())
        return;
    all.erase(it);
    *this = RecordList(std::move(all));
}

void RecordList::shift(uint32_t offset)
{
    if (offset == 0 || m_size == 0)
        return;
    std::vector<uint32_t> all = toVector();
    for (uint32_t& i : all)
        i += offset;
    *this = RecordList(std::move(all));
}

RecordList::const_iterator RecordList::begin() const
{
    const_iterator it;
    it.m_list = this;
    if (m_size == 0)
        return end();
    it.nextRun();
    return it;
}

RecordList::const_iterator RecordList::end() const
{
    const_iterator it;
    it.m_list = this;
    it.m_at = m_bytes.size();
    it.m_inOpen = true;
    return it;
}

void RecordList::const_iterator::nextRun()
{
    const RecordList& l = *m_list;
    if (m_at < l.m_bytes.size()) {
        // The first run's gap counts from 0; the others' from the end of the run before.
        const uint32_t from = m_at == 0 ? 0 : m_value + 1;
        m_value = from + getVarint(l.m_bytes, m_at);
        m_left = getVarint(l.m_bytes, m_at) + 1;
    } else if (!m_inOpen && l.m_runLength > 0) {
        m_inOpen = true;
        m_value = l.m_runStart;
        m_left = l.m_runLength;
    } else {
        m_at = l.m_bytes.size();
        m_inOpen = true;
        m_left = 0;
    }
}

RecordList::const_iterator& RecordList::const_iterator::operator++()
{
    if (m_left > 1) {
        --m_left;
        ++m_value;
    } else {
        nextRun();
    }
    return *this;
}

std::vector<uint32_t> RecordList::toVector() const
{
    std::vector<uint32_t> out;
    out.reserve(m_size);
    for (uint32_t i : *this)
        out.push_back(i);
    return out;
}

size_t RecordList::heapBytes() const
{
    // libstdc++ keeps up to 15 bytes inline.
    return m_bytes.capacity() > 15 ? m_bytes.capacity() + 1 : 0;
}

size_t RecordList::runs() const
{
    size_t n = m_runLength > 0 ? 1 : 0;
    for (size_t at = 0; at < m_bytes.size();) {
        getVarint(m_bytes, at);
        getVarint(m_bytes, at);
        ++n;
    }
    return n;
}

} // namespace dynascope
