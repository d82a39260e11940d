"""Whether a directory holds the temporaries a killed writer may leave:
none where its file system has O_TMPFILE (the file being written has no
name), one named NAME.tmp.PID.N where it has not. Prints 'as expected' or
the names left."""
import os
import sys

directory = sys.argv[1]
left = [name for name in os.listdir(directory) if ".tmp." in name]
try:
    os.close(os.open(directory, os.O_TMPFILE | os.O_WRONLY, 0o600))
    named = False
except OSError:
    named = True
print("as expected" if len(left) == int(named) else left)
