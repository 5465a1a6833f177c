// A record's payload read from its file's buffer: the text (tabs stripped, lines joined), and
// whether it matches the has_payload MD5 its header declares. The trace model (Trace::payload,
// Trace::payloadHashMatches, lazy guard trees, Trace::verifyPayloads) and the loader's chunk
// scanners, which check every payload as they scan it (LoadOptions::verifyPayloads), share this
// code, so both give the same answer for every record.
#pragma once

#include "core/io/byte_window.h"
#include "core/util/md5.h"
#include "core/util/md5_many.h"

#include <cstdint>

#include <string>
#include <string_view>
#include <vector>

namespace dynascope {

struct Record;
class TraceSource;

// The bytes of `r` (its header line and payload lines) read again from `source`, into `storage`
// unless the source holds them in memory. When the file was written to since it was loaded, the
// record is checked: its header still a whole line where it was, its payload still matching its
// has_payload MD5; an empty window (and TraceSource::problem() set) when it is not, or when the
// file cannot be read. `headerOnly` reads the header line alone (a guard tree's or an output
// code's header without its megabytes of payload), checked as a whole line where it was.
ByteWindow readRecordBytes(
    const TraceSource& source, const Record& r, std::string& storage, bool headerOnly = false);

// The JSON part of a header line (from the first "] {" on: after the glog prefix), or the
// whole line when it has none.
std::string_view headerJsonOf(std::string_view header);

// Payload text of `r`: one tab stripped per line, joined with '\n', CR removed. Blank lines
// inside a payload are dropped, unless keeping them (as empty lines: an editor stripped their
// lone tab) gives the text whose MD5 the header declares.
std::string recordPayload(const ByteWindow& buffer, const Record& r);

// Checks payloads against their declared MD5, reusing its digest and text buffers from one call
// to the next: one per thread.
class PayloadHashCheck {
public:
    // Whether the payload matches its has_payload MD5 (true when the header declares none).
    bool matches(const ByteWindow& buffer, const Record& r);
    // The same answer for many records of one buffer at once: matched[i] for *records[i]. Their
    // payloads are hashed side by side (md5_many.h), several times faster than one by one.
    void matchMany(const ByteWindow& buffer, const std::vector<const Record*>& records,
        std::vector<uint8_t>& matched);

    // matchMany for texts the caller decodes as it reads the payload lines (the loader's chunk
    // scanner, which finds every line anyway): no second pass over the payload bytes.
    // startDecoded(), then for each record i of `records`, in order: its lines by addLine()
    // and endDecoded(i), or dropDecoded() when its text is not the plain reading (a blank line
    // inside the payload: matches() weighs the two readings); then matchDecoded().
    void startDecoded();
    // A payload line without its tab and line end; `first` starts the record's text.
    void addLine(std::string_view content, bool first)
    {
        if (!first)
            m_arena += '\n';
        m_arena.append(content);
    }
    // The lines added since the last endDecoded() are the payload text of records[record].
    void endDecoded(size_t record);
    // Or they are not a text to hash (matchDecoded checks the record by matches()).
    void dropDecoded() { m_arena.resize(m_textStart); }
    void matchDecoded(const ByteWindow& buffer, const std::vector<const Record*>& records,
        std::vector<uint8_t>& matched);

private:
    Md5Hasher m_md5;
    std::string m_text, m_kept; // decoded payloads (their capacity kept unless it grew large)
    // matchMany, matchDecoded: the decoded payloads one after the other, and where each is.
    std::string m_arena;
    size_t m_textStart = 0; // of the text being added
    struct Pending {
        size_t record, offset, size;
    };
    std::vector<Pending> m_pending;
    std::vector<Md5Message> m_messages;
};

} // namespace dynascope
