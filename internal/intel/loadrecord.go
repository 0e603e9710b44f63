package intel

// SkipGone is the skip reason of a record its index lists but its source
// no longer serves.
const SkipGone = "gone"

// Decode decodes one record read from a source that is not a directory or
// a zip (such as a record fetched over HTTP) and appends it to out, or
// counts the skip under the decoder's reason.
func (s *LoadStats) Decode(out []*Advisory, name string, data []byte) []*Advisory {
	return s.add(out, name, data)
}

// SkipRecord counts a record left out for reason.
func (s *LoadStats) SkipRecord(name, reason string, err error) {
	s.skip(name, reason, err)
}
