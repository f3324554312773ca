  // Elements each rank holds before and after.
  static constexpr std::int64_t redistc_from_size[{{RANKS}}] = { {{FROM_SIZES}} };
  static constexpr std::int64_t redistc_to_size[{{RANKS}}] = { {{TO_SIZES}} };
  // The message each rank sends and receives in each step (-1: none),
  // indexed [rank * {{STEPS}} + step].
  static constexpr int redistc_send[{{SEND_ROWS}}] = { {{SEND}} };
  static constexpr int redistc_recv[{{SEND_ROWS}}] = { {{RECV}} };
  // Messages: source, target, length; how to pack it and to unpack it
  // (first piece, pieces, uniform piece length, repeats, stride, first tail
  // piece, tail pieces, datatype or -1: copied through a buffer); a message
  // to itself: how to copy it (first run, runs, uniform run length, repeats,
  // source stride, target stride, first tail run, tail runs).
  static constexpr redistc_detail::Message redistc_messages[{{MESSAGE_ROWS}}] = {
{{MESSAGES}}};
  // Pieces: local offset, elements.
  static constexpr redistc_detail::Piece redistc_pieces[{{PIECE_ROWS}}] = {
{{PIECES}}};
  // Runs: source offset, target offset, elements.
  static constexpr redistc_detail::Run redistc_runs[{{RUN_ROWS}}] = {
{{RUNS}}};
{{TYPE_TABLE}}
  // The node's shared-memory rings, set up on the first call.
  static redistc_detail::Handover redistc_handover;
  static constexpr redistc_detail::Exchange redistc_exchange = {
      {{RANKS}}, {{STEPS}}, redistc_from_size, redistc_to_size, redistc_send,
      redistc_recv, redistc_messages, redistc_pieces, redistc_runs,
      {{TYPES}}, {{MAX_LENGTH}}, &redistc_handover};
