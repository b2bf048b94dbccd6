"""Golden transcripts: ``rummysim replay`` of fixed hands of every variant file, kept as text
in ``transcripts/`` so that a change of the engine's play shows as a readable diff."""
