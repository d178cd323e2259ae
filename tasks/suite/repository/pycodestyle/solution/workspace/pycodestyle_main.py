# Entry point of the launcher: imports pycodestyle from its byte code compiled
# by make (a script run directly is compiled on every start) and runs it.
import pycodestyle

pycodestyle._main()
