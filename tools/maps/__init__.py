"""The scripts that build the boards' data in maps/: run from the repository root as
`python -m tools.maps.<script>` (build_ussr, build_alsace, convert_reference, seas)."""
