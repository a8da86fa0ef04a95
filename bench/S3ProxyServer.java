// SPDX-License-Identifier: Apache-2.0
// An S3 server for bench/s3-intake.sh: s3proxy over a folder on 127.0.0.1, SigV4 with the access key and
// secret of AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, as the server's tests run it.
// Run with the JDK's source launcher and the server module's test class path:
//   java -cp CLASSPATH bench/S3ProxyServer.java PORT FOLDER
// Prints "s3proxy listening on PORT" once it answers; runs until killed.
import java.net.URI;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.nio2blob.FilesystemNio2BlobStore;

public class S3ProxyServer {
    public static void main(String[] args) throws Exception {
        S3Proxy proxy = S3Proxy.builder().blobStore(new FilesystemNio2BlobStore(args[1]))
                .endpoint(URI.create("http://127.0.0.1:" + args[0]))
                .awsAuthentication(AuthenticationType.AWS_V4, System.getenv("AWS_ACCESS_KEY_ID"), System.getenv("AWS_SECRET_ACCESS_KEY"))
                .build();
        proxy.start();
        while (!"STARTED".equals(proxy.getState())) {
            Thread.sleep(10);
        }
        System.out.println("s3proxy listening on " + proxy.getPort());
        Thread.currentThread().join();
    }
}
