"""Assets: templates, standard libraries, and where their directories are found."""
